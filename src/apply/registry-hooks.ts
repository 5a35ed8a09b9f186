// What the generic registry calls to keep managedFields: one field manager per served resource
// (and per subresource), the manager name of a write, the Update entry of a create/update/patch,
// and IgnoreManagedFieldsTimestampsTransformer. The registry stays unaware of the SSA internals.
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { badRequest } from '../errors/status-error.ts';
import { formatTimestamp } from '../go/time.ts';
import type { Clock } from '../util/clock-and-random.ts';
import type { ApplyPatch } from './apply-patch.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { builtinSchema, builtinZero } from './builtin-schema.ts';
import { customResourceSchema } from './crd-schema.ts';
import { FieldManager } from './field-manager.ts';
import { FieldSet, type Path } from './fieldpath.ts';
import { DEDUCED } from './smd-schema.ts';
import { isMap } from './value.ts';
import { setOwn } from '../util/own-property.ts';

// Per type and per clock: built-in resource types are shared by every cluster in a process, and each
// cluster's writes are timed by its own clock (a deterministic cluster's frozen one, another's real
// one). Kept per type alone, every later cluster recorded the first cluster's time.
const managers = new WeakMap<ResourceType, WeakMap<Clock, FieldManager>>();

/**
 * The fields the endpoint's strategy resets, which nobody owns (GetResetFields): status on a
 * resource with a status subresource; on `/status`, spec (and all metadata for custom resources);
 * on a CSR's `/approval`, spec and status.certificate (csrApprovalStrategy.GetResetFields).
 */
function resetFieldsOf(type: ResourceType): FieldSet | undefined {
  const paths: Path[] = [];
  if (type.subresource === 'status') {
    paths.push([{ field: 'spec' }]);
    if (type.unstructured) paths.push([{ field: 'metadata' }]);
  } else if (type.subresource === 'approval') {
    paths.push([{ field: 'spec' }], [{ field: 'status' }, { field: 'certificate' }]);
  } else if (type.subresources.includes('status')) {
    paths.push([{ field: 'status' }]);
  }
  return paths.length ? FieldSet.of(...paths) : undefined;
}

/** The field manager of a resource type (the `/status` derived type gets its own). */
export function fieldManagerFor(type: ResourceType, clock: Clock): FieldManager {
  let byClock = managers.get(type);
  if (!byClock) managers.set(type, (byClock = new WeakMap()));
  let fm = byClock.get(clock);
  if (!fm) {
    const atom = type.unstructured ? customResourceSchema(type.schema) : (builtinSchema(type.group, type.version, type.kind) ?? DEDUCED);
    fm = new FieldManager({
      group: type.group,
      version: type.version,
      kind: type.kind,
      atom,
      subresource: type.subresource,
      resetFields: resetFieldsOf(type),
      now: () => formatTimestamp(clock.now()),
      zero: type.unstructured ? undefined : builtinZero(type.group, type.version, type.kind),
    });
    byClock.set(clock, fm);
  }
  return fm;
}

const scaleManagers = new WeakMap<Clock, FieldManager>();

/** The field manager of `/scale` requests: it manages the autoscaling/v1 Scale itself. */
export function scaleFieldManagerFor(clock: Clock): FieldManager {
  let fm = scaleManagers.get(clock);
  if (!fm) {
    const [group, version, kind] = ['autoscaling', 'v1', 'Scale'];
    fm = new FieldManager({ group, version, kind, atom: builtinSchema(group, version, kind) ?? DEDUCED, subresource: 'scale', now: () => formatTimestamp(clock.now()), zero: builtinZero(group, version, kind) });
    scaleManagers.set(clock, fm);
  }
  return fm;
}

const FIELD_MANAGER_MAX_LENGTH = 128;
const isPrint = (ch: string) => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch);

/** managerOrUserAgent: the fieldManager, else the User-Agent up to its first `/` (printable, ≤128 bytes). */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = '';
  let bytes = 0;
  for (const ch of (userAgent ?? '').split('/')[0]!) {
    if (!isPrint(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** Records the writer of a create/update/non-apply patch as an Update manager, in place. */
export function recordUpdateManager(type: ResourceType, clock: Clock, live: KubeObject | undefined, obj: KubeObject, manager: string): void {
  const next = fieldManagerFor(type, clock).update(live as Record<string, unknown> | undefined, obj as Record<string, unknown>, manager);
  const meta = (next.metadata ?? {}) as Record<string, unknown>;
  if (meta.managedFields === undefined) delete obj.metadata!.managedFields;
  else obj.metadata!.managedFields = meta.managedFields as unknown[];
}

/**
 * IgnoreManagedFieldsTimestampsTransformer: when a write changes nothing but managedFields times,
 * the old times are kept, so the write is a no-op (no new resourceVersion, no watch event).
 */
export function ignoreManagedFieldsTimestamps(obj: KubeObject, old: KubeObject): void {
  const next = obj.metadata?.managedFields;
  const prev = old.metadata?.managedFields;
  if (!Array.isArray(next) || !Array.isArray(prev) || next.length !== prev.length || next.length === 0) return;
  const time = (e: unknown) => (isMap(e) ? e.time : undefined);
  if (next.every((e, i) => time(e) === time(prev[i]))) return;
  const untimed = (list: unknown[]) => list.map((e) => (isMap(e) ? { ...e, time: undefined } : e));
  if (!deepEqual(JSON.parse(JSON.stringify(untimed(next))), JSON.parse(JSON.stringify(untimed(prev))))) return;
  const rest = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined, resourceVersion: undefined } });
  if (!deepEqual(JSON.parse(JSON.stringify(rest(obj))), JSON.parse(JSON.stringify(rest(old))))) return;
  obj.metadata!.managedFields = next.map((e, i) => (isMap(e) ? { ...e, ...(time(prev[i]) === undefined ? {} : { time: time(prev[i]) }) } : e));
}

/**
 * What decoding the merged object into its Go type does for built-ins: explicit nulls (left where
 * an apply removed the last entry of a map or list) disappear. Custom resources keep them for
 * their schema's null handling, except in metadata.
 */
export function dropNullsAfterApply(type: ResourceType, obj: Record<string, unknown>): Record<string, unknown> {
  if (!type.unstructured) return dropNulls(obj) as Record<string, unknown>;
  return isMap(obj.metadata) ? { ...obj, metadata: dropNulls(obj.metadata) } : obj;
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (!isMap(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) setOwn(out, k, dropNulls(x));
  return out;
}

/**
 * Server-side apply of `patch` to the live object (undefined for a create): the merged object with
 * its managedFields, then the strict decoder's finding on the body (a 400 under Strict; Warn's
 * warning is the caller's), as patch.go's applyPatcher does after the apply.
 */
export function applyToLive(type: ResourceType, clock: Clock, live: Record<string, unknown> | undefined, patch: ApplyPatch, fieldManager: string): Record<string, unknown> {
  return dropNullsAfterApply(type, applyWith(fieldManagerFor(type, clock), live, patch, fieldManager));
}

/** applyToLive for `/scale`: the Scale's own field manager; the typed Scale drops explicit nulls. */
export function applyScale(clock: Clock, live: Record<string, unknown>, patch: ApplyPatch, fieldManager: string): Record<string, unknown> {
  return dropNulls(applyWith(scaleFieldManagerFor(clock), live, patch, fieldManager)) as Record<string, unknown>;
}

function applyWith(fm: FieldManager, live: Record<string, unknown> | undefined, patch: ApplyPatch, fieldManager: string): Record<string, unknown> {
  const merged = fm.apply(live, patch.config, fieldManager, patch.force);
  if (patch.strictError !== undefined && patch.fieldValidation === 'Strict') throw badRequest(`error strict decoding YAML: ${patch.strictError}`);
  return merged;
}
