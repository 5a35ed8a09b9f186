// Volatile fields of a snapshot, replaced by placeholders so a snapshot taken with the real clock
// and random uids reads the same on every run: uids (numbered, so references stay linked), names
// generated from generateName (the random suffix numbered, in every string equal to that name),
// resourceVersions, timestamps (managedFields' `time` included).
import { isPlainObject, type KubeObject, type ObjectMeta } from '../apis/object.ts';
import { generatedPrefix } from '../registry/generate-name.ts';

/** RFC 3339 as Kubernetes writes metav1.Time and MicroTime. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Keys that hold times: creationTimestamp, lastTransitionTime, renewTime, firstTimestamp, eventTime, managedFields' time… */
const TIME_KEY = /(^time|Time|Timestamp)$/;

export const PLACEHOLDER = {
  resourceVersion: '<resourceVersion>',
  timestamp: '<timestamp>',
  uid: (n: number) => `<uid-${n}>`,
  /** `web-x7k2p` → `web-<suffix-1>`: the prefix stays, the random part is numbered. */
  generatedName: (prefix: string, n: number) => `${prefix}<suffix-${n}>`,
} as const;

/** admission/service-account.ts's SERVICE_ACCOUNT_VOLUME_NAME and its dash. */
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';

/** Unnumbered forms, for comparing objects whatever their identities (see stable-order.ts). */
const ANONYMOUS = { uid: '<uid>', generatedName: (prefix: string) => `${prefix}<suffix>` } as const;

/**
 * Numbers uids and generated names in the order they are first registered; one instance per
 * snapshot (or diff), so the same uid or name gets the same placeholder everywhere in it.
 * `anonymous` gives every uid `<uid>` and every generated name `<prefix><suffix>` instead.
 */
export class Placeholders {
  private readonly uids = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly anonymous: boolean;

  constructor(options: { anonymous?: boolean } = {}) {
    this.anonymous = options.anonymous === true;
  }

  uid(uid: string): string {
    if (this.anonymous) return ANONYMOUS.uid;
    let p = this.uids.get(uid);
    if (!p) this.uids.set(uid, (p = PLACEHOLDER.uid(this.uids.size + 1)));
    return p;
  }

  /** Registers the object's name when the apiserver generated it from `generateName`. */
  addGeneratedName(meta: Pick<ObjectMeta, 'name' | 'generateName'> | undefined): void {
    const name = meta?.name;
    if (typeof name !== 'string' || this.names.has(name)) return;
    const prefix = generatedPrefix(name, meta!.generateName);
    if (prefix !== undefined) this.names.set(name, this.anonymous ? ANONYMOUS.generatedName(prefix) : PLACEHOLDER.generatedName(prefix, this.names.size + 1));
  }

  /**
   * Registers every name the apiserver generated in `obj`: its own (from generateName) and a
   * pod's ServiceAccount token volume (`kube-api-access-` and a random suffix, named by the
   * ServiceAccount admission plugin), so `kube-api-access-<suffix-1>` reads the same on every run.
   */
  addGeneratedNames(obj: KubeObject): void {
    this.addGeneratedName(obj.metadata);
    const volumes = isPlainObject(obj.spec) ? obj.spec.volumes : undefined;
    if (!Array.isArray(volumes)) return;
    for (const volume of volumes) {
      if (isPlainObject(volume) && typeof volume.name === 'string' && isPlainObject(volume.projected)) {
        this.addGeneratedName({ name: volume.name, generateName: TOKEN_VOLUME_PREFIX });
      }
    }
  }

  /** The placeholder of a registered generated name, or the text unchanged. */
  name(text: string): string {
    return this.names.get(text) ?? text;
  }
}

/** A normalised copy of `obj` (which must be a mutable copy already: it is changed in place). */
export function normalizeObject(obj: KubeObject, placeholders: Placeholders): KubeObject {
  visit(obj, placeholders);
  return obj;
}

/** Normalises one value in place (or answers the placeholder for a scalar) as found under `key`. */
export function normalizeValue(key: string | undefined, value: unknown, placeholders: Placeholders): unknown {
  if (typeof value === 'string') {
    if (key === 'uid') return placeholders.uid(value);
    if (key === 'resourceVersion') return PLACEHOLDER.resourceVersion;
    if (key !== undefined && TIME_KEY.test(key) && RFC3339.test(value)) return PLACEHOLDER.timestamp;
    // A generated name anywhere: the object's own, owner references, a status that names it…
    return placeholders.name(value);
  }
  if (typeof value === 'object' && value !== null) visit(value, placeholders);
  return value;
}

function visit(node: unknown, placeholders: Placeholders): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      if (typeof node[i] === 'string') node[i] = placeholders.name(node[i]);
      else visit(node[i], placeholders);
    }
    return;
  }
  if (!isPlainObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') node[key] = normalizeValue(key, value, placeholders);
    else visit(value, placeholders);
  }
}
