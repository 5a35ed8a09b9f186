// The field manager k8s.io/apimachinery's managedfields.NewDefaultFieldManager assembles, as one
// module: version check, kubectl's last-applied interplay, "before-first-apply", the cap of ten
// Update managers, manager identifiers, timestamps, the metadata fields nobody owns, and the
// structured merge itself (updater.ts). Objects are plain JSON; `live` is the object as stored
// (for a create, an empty object).
import { deepCopyJson } from '../schema/json-value.ts';
import { badRequest, plainServerError, StatusError, type StatusCause } from '../errors/status-error.ts';
import { goJson } from '../errors/go-format.ts';
import { FieldSet, pathString, type Path } from './fieldpath.ts';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  parseIdentifier,
  ManagedFieldsDecodeError,
  type Managed,
} from './managed-fields.ts';
import type { Atom } from './smd-schema.ts';
import { compare, toFieldSet, validate, validationErrorsText } from './typed.ts';
import { applyManaged, ConflictsError, updateManaged, UpdaterError, type Conflict, type ManagedFields, type Updater } from './updater.ts';
import { isMap } from './value.ts';

export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';
const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The fields stripMetaManager removes from every manager's set. */
export const STRIPPED = FieldSet.of(
  [{ field: 'apiVersion' }],
  [{ field: 'kind' }],
  [{ field: 'metadata' }],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (f): Path => [{ field: 'metadata' }, { field: f }],
  ),
);

export interface FieldManagerConfig {
  group: string;
  version: string;
  kind: string;
  /** The schema objects of this kind are typed with. */
  atom: Atom;
  /** `status` for the status subresource's field manager; undefined for the resource. */
  subresource?: string;
  /** Fields the strategy resets on this endpoint (status on the resource, spec on /status): owned by no one. */
  resetFields?: FieldSet;
  /** RFC 3339 seconds, the entries' `time`. */
  now(): string;
  /** The kind's zero value as the converter writes it (creater.New): the "live" object of a create. */
  zero?: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

const metaOf = (o: Obj): Obj => (isMap(o.metadata) ? o.metadata : {});

/** The object without metadata.managedFields (nobody owns them; they are not compared). */
function withoutManagedFields(o: Obj): Obj {
  if (!isMap(o.metadata) || !('managedFields' in o.metadata)) return o;
  const { managedFields: _m, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

function setManagedFields(o: Obj, managed: Managed): Obj {
  const encoded = encodeManagedFields(managed);
  const meta = { ...metaOf(o) };
  if (encoded) meta.managedFields = encoded;
  else delete meta.managedFields;
  return { ...o, metadata: meta };
}

/** `"<mgr>"`, `"<mgr>" with subresource "status"`, plus ` using <apiVersion>` for Update managers (printManager). */
export function printManager(id: string): string {
  const entry = parseIdentifier(id);
  if (!entry) return JSON.stringify(id);
  let s = JSON.stringify(entry.manager ?? '');
  if (entry.subresource) s += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') s += ` using ${entry.apiVersion ?? ''}`;
  return s;
}

/** NewConflictError: 409 Conflict, the conflicts as FieldManagerConflict causes. */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
    const lines: string[] = [];
    for (const manager of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(manager)}:`);
      for (const p of byManager.get(manager)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError({ message, reason: 'Conflict', details: { causes }, code: 409 });
}

/** `<ns>/<name>; <group>/<version>, Kind=<kind>` (objectGVKNN). */
function gvknn(o: Obj): string {
  const meta = metaOf(o);
  const gvk = parseGVK(o);
  return `${typeof meta.namespace === 'string' ? meta.namespace : ''}/${typeof meta.name === 'string' ? meta.name : ''}; ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/** schema.ParseGroupVersion on the object's apiVersion; an unparsable one yields the empty version. */
function parseGVK(o: Obj): { group: string; version: string; kind: string } {
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '', kind };
  return parts.length === 1 ? { group: '', version: apiVersion, kind } : { group: parts[0]!, version: parts[1]!, kind };
}

export class FieldManager {
  private readonly config: FieldManagerConfig;
  private readonly updater: Updater;

  constructor(config: FieldManagerConfig) {
    this.config = config;
    this.updater = { atom: config.atom, ignored: (v) => (v === this.groupVersion ? config.resetFields : undefined) };
  }

  private zero(): Obj {
    return deepCopyJson(this.config.zero ?? {});
  }

  get groupVersion(): string {
    return this.config.group ? `${this.config.group}/${this.config.version}` : this.config.version;
  }

  /**
   * FieldManager.UpdateNoErrors for a create, update or non-apply patch: the manager owns what it
   * changed. managedFields sent in the request replace the live ones (`[{}]` clears them); an
   * object without managedFields starts being tracked only by an apply. Never fails: on an
   * internal error the object goes out without managedFields, as the real one does.
   */
  update(liveOrNone: Obj | undefined, next: Obj, manager: string): Obj {
    const live = liveOrNone ?? this.zero();
    const managed = this.decodeLiveOrNew(live, next);
    let object = withoutManagedFields(next);
    // skipNonAppliedManager: an existing object nobody manages stays unmanaged until an apply.
    if (managed.fields.size === 0 && typeof metaOf(live).uid === 'string' && metaOf(live).uid !== '') return object;
    try {
      this.updateChain(live, object, managed, manager);
    } catch (err) {
      if (err instanceof UpdaterError) return object;
      throw err;
    }
    object = setManagedFields(object, managed);
    return object;
  }

  private decodeLiveOrNew(live: Obj, next: Obj): Managed {
    const liveManaged = () => {
      try {
        return decodeManagedFields(metaOf(live).managedFields);
      } catch (err) {
        if (err instanceof ManagedFieldsDecodeError) return emptyManaged();
        throw err;
      }
    };
    // A subresource never takes managedFields from the request.
    if (this.config.subresource) return liveManaged();
    const requested = metaOf(next).managedFields;
    if (isResetManagedFields(requested)) return emptyManaged();
    try {
      const managed = decodeManagedFields(requested);
      if (managed.fields.size > 0) return managed;
    } catch (err) {
      if (!(err instanceof ManagedFieldsDecodeError)) throw err;
    }
    return liveManaged();
  }

  /** capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta → structuredMerge, for an Update. */
  private updateChain(live: Obj, next: Obj, managed: Managed, manager: string): void {
    const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: this.groupVersion, subresource: this.config.subresource });
    const liveV = withoutManagedFields(live);
    for (const [what, o] of [['new', next], ['live', liveV]] as const) {
      // Objects kubefake stored with fields the schema lacks (the real decoder would have dropped
      // them) are still tracked; other schema errors void managedFields as UpdateNoErrors does.
      const errs = validate(this.config.atom, o, true).filter((e) => e.message !== 'field not declared in schema');
      if (errs.length) throw new UpdaterError(`failed to convert ${what} object (${gvknn(o)}) to smd typed: ${validationErrorsText(errs)}`);
    }
    updateManaged(this.updater, liveV, next, this.groupVersion, managed.fields, CURRENT_OPERATION);
    strip(managed.fields, CURRENT_OPERATION);
    const current = managed.fields.get(CURRENT_OPERATION);
    if (current) {
      managed.fields.delete(CURRENT_OPERATION);
      const previous = managed.fields.get(id);
      managed.fields.set(id, previous ? { ...current, set: current.set.union(previous.set) } : current);
      managed.times.set(id, this.config.now());
    }
    capUpdateManagers(managed);
  }

  /**
   * FieldManager.Apply: merges the applied configuration into `live` (an empty object when the
   * apply creates) and answers the new object with its managedFields. Throws the apiserver's
   * errors: 400s for the wrong kind or version or managedFields in the configuration, a plain 500
   * for a configuration the schema refuses, 409 with the conflicts unless `force`.
   */
  apply(liveOrNone: Obj | undefined, applied: Obj, manager: string, force: boolean): Obj {
    const live = liveOrNone ?? this.zero();
    let managed: Managed;
    try {
      managed = decodeManagedFields(metaOf(live).managedFields);
    } catch (err) {
      if (err instanceof ManagedFieldsDecodeError) throw plainServerError(`failed to decode managed fields: ${err.message}`);
      throw err;
    }
    const gvk = parseGVK(applied);
    const { group, version, kind } = this.config;
    if (gvk.group !== group || gvk.version !== version || gvk.kind !== kind) throw badRequest(`invalid object type: ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`);
    let result: { object: Obj; managed: Managed };
    try {
      result = this.applyChain(live, applied, cloneManaged(managed), manager, force);
    } catch (err) {
      if (!(err instanceof ConflictsError)) throw err;
      // lastAppliedManager: kubectl may take over fields its client-side apply set, unchanged since.
      const allowed = manager === 'kubectl' ? this.allowedConflictsFromLastApplied(live) : undefined;
      if (!allowed) throw conflictError(err.conflicts);
      const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length) throw conflictError(remaining);
      result = this.applyChain(live, applied, cloneManaged(managed), manager, true);
    }
    let object = result.object;
    // lastAppliedUpdater: kubectl's server-side apply keeps an existing last-applied annotation current.
    const annotations = metaOf(object).annotations;
    if (manager === 'kubectl' && isMap(annotations) && typeof annotations[LAST_APPLIED_ANNOTATION] === 'string' && annotations[LAST_APPLIED_ANNOTATION] !== '') {
      object = { ...object, metadata: { ...metaOf(object), annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: buildLastApplied(applied) } } };
    }
    return setManagedFields(object, result.managed);
  }

  private applyChain(live: Obj, applied: Obj, managed: Managed, manager: string, force: boolean): { object: Obj; managed: Managed } {
    let liveV = withoutManagedFields(live);
    // skipNonAppliedManager: the fields of an object nobody manages yet go to "before-first-apply".
    if (managed.fields.size === 0) this.updateChain(this.zero(), liveV, managed, BEFORE_FIRST_APPLY);
    const id = managerIdentifier({ manager, operation: 'Apply', subresource: this.config.subresource });
    if (metaOf(applied).managedFields !== undefined && Array.isArray(metaOf(applied).managedFields)) throw badRequest('metadata.managedFields must be nil');
    const patchErrs = validate(this.config.atom, applied);
    if (patchErrs.length) throw plainServerError(`failed to create typed patch object (${gvknn(applied)}): ${validationErrorsText(patchErrs)}`);
    const liveErrs = validate(this.config.atom, liveV, true);
    if (liveErrs.length) throw plainServerError(`failed to create typed live object (${gvknn(liveV)}): ${validationErrorsText(liveErrs)}`);
    let outcome: { object: unknown; managers: ManagedFields };
    try {
      outcome = applyManaged(this.updater, liveV, applied, this.groupVersion, managed.fields, id, force);
    } catch (err) {
      if (err instanceof UpdaterError) throw plainServerError(err.message);
      throw err;
    }
    strip(managed.fields, id);
    if (outcome.object !== undefined) {
      managed.times.set(id, this.config.now());
      liveV = outcome.object as Obj;
    }
    return { object: liveV, managed };
  }

  /** The last-applied fields whose live values still equal what was last applied. */
  private allowedConflictsFromLastApplied(live: Obj): FieldSet | undefined {
    const annotations = metaOf(live).annotations;
    const text = isMap(annotations) ? annotations[LAST_APPLIED_ANNOTATION] : undefined;
    if (typeof text !== 'string' || text === '') return undefined;
    let lastApplied: unknown;
    try {
      lastApplied = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isMap(lastApplied) || lastApplied.apiVersion !== this.groupVersion) return undefined;
    const liveV = withoutManagedFields(live);
    if (validate(this.config.atom, lastApplied, true).length || validate(this.config.atom, liveV, true).length) return undefined;
    const c = compare(this.config.atom, lastApplied, liveV);
    return toFieldSet(this.config.atom, lastApplied).difference(c.modified).difference(c.added).difference(c.removed);
  }
}

/** stripMetaManager.stripFields. */
function strip(fields: ManagedFields, manager: string): void {
  const vs = fields.get(manager);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED);
  if (set.empty()) fields.delete(manager);
  else fields.set(manager, { ...vs, set });
}

const cloneManaged = (m: Managed): Managed => ({ fields: new Map(m.fields), times: new Map(m.times) });

const unixSeconds = (t: string | undefined) => (t ? Math.floor(Date.parse(t) / 1000) || 0 : 0);

/**
 * capManagersManager: beyond ten Update managers, the oldest are folded, per API version, into an
 * `ancient-changes` entry (the first of a version is renamed, later ones are merged into it).
 */
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort((a, b) => unixSeconds(managed.times.get(a)) - unixSeconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const versionToFirst = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const manager = updaters[i]!;
    const vs = managed.fields.get(manager)!;
    const time = managed.times.get(manager);
    const version = vs.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version });
    const first = versionToFirst.get(version);
    if (first === undefined) {
      versionToFirst.set(version, manager);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const s = managed.fields.get(first)!;
      managed.fields.delete(first);
      managed.fields.set(bucket, s);
    }
    managed.fields.set(bucket, { set: vs.set.union(managed.fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(manager);
    length--;
    managed.times.set(bucket, time);
  }
}

/** buildLastApplied: the applied object without the annotation itself, as JSON with a newline. */
function buildLastApplied(applied: Obj): string {
  const meta = metaOf(applied);
  const annotations = isMap(meta.annotations) ? { ...meta.annotations } : undefined;
  if (annotations) delete annotations[LAST_APPLIED_ANNOTATION];
  const copy = { ...applied, metadata: { ...meta, ...(annotations ? { annotations } : {}) } };
  return goJson(copy) + '\n';
}
