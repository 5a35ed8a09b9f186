// Volatile fields of a snapshot, replaced by placeholders so a snapshot taken with the real clock
// and random uids reads the same on every run: uids (numbered, so references stay linked),
// resourceVersions, timestamps (managedFields' `time` included).
import { isPlainObject, type KubeObject } from '../apis/object.ts';

/** RFC 3339 as Kubernetes writes metav1.Time and MicroTime. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Keys that hold times: creationTimestamp, lastTransitionTime, renewTime, firstTimestamp, eventTime, managedFields' time… */
const TIME_KEY = /(^time|Time|Timestamp)$/;

export const PLACEHOLDER = {
  resourceVersion: '<resourceVersion>',
  timestamp: '<timestamp>',
  uid: (n: number) => `<uid-${n}>`,
} as const;

/** Numbers uids in the order they are first asked for; one instance per snapshot (or diff). */
export class UidNumbering {
  private readonly seen = new Map<string, string>();
  placeholder(uid: string): string {
    let p = this.seen.get(uid);
    if (!p) this.seen.set(uid, (p = PLACEHOLDER.uid(this.seen.size + 1)));
    return p;
  }
}

/** A normalised copy of `obj` (which must be a mutable copy already: it is changed in place). */
export function normalizeObject(obj: KubeObject, uids: UidNumbering): KubeObject {
  visit(obj, uids);
  return obj;
}

/** Normalises one value in place (or answers the placeholder for a scalar) as found under `key`. */
export function normalizeValue(key: string | undefined, value: unknown, uids: UidNumbering): unknown {
  if (typeof value === 'string' && key !== undefined) {
    if (key === 'uid') return uids.placeholder(value);
    if (key === 'resourceVersion') return PLACEHOLDER.resourceVersion;
    if (TIME_KEY.test(key) && RFC3339.test(value)) return PLACEHOLDER.timestamp;
    return value;
  }
  if (typeof value === 'object' && value !== null) visit(value, uids);
  return value;
}

function visit(node: unknown, uids: UidNumbering): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, uids);
    return;
  }
  if (!isPlainObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') node[key] = normalizeValue(key, value, uids);
    else visit(value, uids);
  }
}
