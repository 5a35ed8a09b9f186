// Small pieces the built-in strategies are assembled from, so each kind's file only states what
// its real strategy does (pkg/registry/<group>/<resource>/strategy.go) instead of re-coding it.
import type { FieldError } from '../../errors/field-error.ts';
import type { KubeObject, ObjectMeta } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { ResourceType, Strategy } from '../resource-type.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import { BUILTIN_RESOURCES, type BuiltinResourceFacts } from '../../generated/builtin-catalogue.ts';

export type JsonObject = Record<string, unknown>;

/** The child object at `key`, created when missing or not an object. */
export function child(obj: JsonObject, key: string): JsonObject {
  const v = obj[key];
  if (isPlainObject(v)) return v;
  const created: JsonObject = {};
  obj[key] = created;
  return created;
}

/** The object at `key`, or undefined when missing or not an object. */
export function objAt(obj: unknown, key: string): JsonObject | undefined {
  if (!isPlainObject(obj)) return undefined;
  const v = obj[key];
  return isPlainObject(v) ? v : undefined;
}

/** The array at `key`, keeping only its object elements' positions (others are skipped by callers). */
export function arrAt(obj: unknown, key: string): unknown[] | undefined {
  if (!isPlainObject(obj)) return undefined;
  const v = obj[key];
  return Array.isArray(v) ? v : undefined;
}

/** Walks a dotted path through plain objects. */
export function getIn(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** A JSON object, or undefined for anything else (a struct pointer as Go decodes it: absent or null is nil). */
export const asObject = (v: unknown): JsonObject | undefined => (isPlainObject(v) ? v : undefined);

/** A string field as Go holds it after decoding: missing or non-string is the zero value "". */
export function goString(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** strconv.FormatBool / fmt.Sprint of a bool field (missing is false). */
export function goBool(v: unknown): string {
  return v === true ? 'true' : 'false';
}

/** strconv.Itoa of an int32 field (missing is 0). */
export function goInt(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? String(Math.trunc(v)) : '0';
}

/** Whether a field is unset the way Go sees it: nil pointer, empty string or missing. */
export function unset(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

export function setDefault(obj: JsonObject, key: string, value: unknown): void {
  if (unset(obj[key])) obj[key] = value;
}

export function meta(obj: KubeObject): ObjectMeta {
  if (!isPlainObject(obj.metadata)) obj.metadata = {};
  return obj.metadata!;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (structuredClone(v) as T);
}

/** Whether a JSON value is what Go's omitempty leaves out (equal to an absent field). */
export const isEmptyJson = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

/**
 * apiequality.Semantic.DeepEqual on the JSON of two values: as the forked reflect.DeepEqual it runs
 * (apimachinery third_party/forked/golang/reflect/deep_equal.go, equateNilAndEmpty), nil and empty
 * slices and maps are equal, and so are an absent field and an empty one.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyJson(a) && isEmptyJson(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return deepEqual(a, b);
}

/** Runs several strategy parts in order; validation results are concatenated. */
export function composeStrategy(...parts: Strategy[]): Strategy {
  const has = <K extends keyof Strategy>(k: K) => parts.some((p) => p[k]);
  const strategy: Strategy = {};
  if (has('prepareForCreate')) strategy.prepareForCreate = (obj, request) => parts.forEach((p) => p.prepareForCreate?.(obj, request));
  if (has('prepareForUpdate')) strategy.prepareForUpdate = (obj, old, request) => parts.forEach((p) => p.prepareForUpdate?.(obj, old, request));
  if (has('beginCreate')) strategy.beginCreate = (obj, request) => parts.forEach((p) => p.beginCreate?.(obj, request));
  if (has('beginUpdate')) strategy.beginUpdate = (obj, old, request) => parts.forEach((p) => p.beginUpdate?.(obj, old, request));
  if (has('renamedForCreate')) strategy.renamedForCreate = (obj, previous) => parts.forEach((p) => p.renamedForCreate?.(obj, previous));
  if (has('finishWrite')) strategy.finishWrite = (obj, committed) => parts.forEach((p) => p.finishWrite?.(obj, committed));
  if (has('validate')) strategy.validate = (obj) => parts.flatMap((p): FieldError[] => p.validate?.(obj) ?? []);
  if (has('validateUpdate')) {
    strategy.validateUpdate = (obj, old) => parts.flatMap((p): FieldError[] => p.validateUpdate?.(obj, old) ?? []);
  }
  if (has('warnings')) strategy.warnings = (obj, old) => parts.flatMap((p) => p.warnings?.(obj, old) ?? []);
  // Deletion hooks are not composable: a type has at most one.
  for (const k of ['checkGracefulDelete', 'beforeDelete', 'canCompleteDeletion'] as const) {
    const owner = parts.find((p) => p[k]);
    if (owner) Object.assign(strategy, { [k]: owner[k] });
  }
  return strategy;
}

/**
 * Defaulting (pkg/apis/<group>/v1/defaults.go) and wire conversion. The real server runs it on every
 * decode, including reading back what it just stored, so it is applied before and after the
 * strategy proper (a Job's labels copied from template labels the strategy itself added).
 */
export function defaulting(fn: (obj: KubeObject) => void): Strategy {
  return { prepareForCreate: fn, prepareForUpdate: (obj) => fn(obj) };
}

/**
 * A status subresource: create starts from `initial()` (PrepareForCreate's `Status = XStatus{}` or
 * its seeded value), main-resource updates keep the stored status.
 */
export function statusSubresource(initial: (obj: KubeObject) => unknown = () => ({})): Strategy {
  return {
    prepareForCreate(obj) {
      obj.status = initial(obj);
    },
    prepareForUpdate(obj, old) {
      if (old.status === undefined) delete obj.status;
      else obj.status = clone(old.status);
    },
  };
}

/**
 * metadata.generation: 1 on create, +1 when the compared content changes on update
 * (`if !Semantic.DeepEqual(new.Spec, old.Spec) { new.Generation = old.Generation + 1 }`).
 */
export function generation(compared: (obj: KubeObject) => unknown = (obj) => obj.spec): Strategy {
  return {
    prepareForCreate(obj) {
      meta(obj).generation = 1;
    },
    prepareForUpdate(obj, old) {
      const previous = typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0;
      meta(obj).generation = semanticEqual(compared(obj), compared(old)) ? previous : previous + 1;
    },
  };
}

/** Fills fields Go always serialises (non-pointer structs, ints without omitempty) with zero values. */
export function zeroFields(target: JsonObject, zeros: JsonObject): void {
  for (const [k, v] of Object.entries(zeros)) {
    if (target[k] === undefined) target[k] = clone(v);
    else if (isPlainObject(v) && isPlainObject(target[k])) zeroFields(target[k] as JsonObject, v);
  }
}

/** Map keys in a stable order; Go iterates maps randomly, so error order is ours to pick. */
export function sortedKeys(obj: JsonObject): string[] {
  return Object.keys(obj).sort();
}

/** Field-selector extractors for the two ObjectMeta keys generic.ObjectMetaFieldsSet provides. */
export const metadataName = (obj: KubeObject): string => goString(obj.metadata?.name);
export const metadataNamespace = (obj: KubeObject): string => goString(obj.metadata?.namespace);

/**
 * The hand-written behaviour of a built-in kind. Its discovery data (kind, scope, shortNames,
 * categories, verbs, discovery subresources, storageVersionHash) comes from the generated
 * catalogue (src/generated/builtin-catalogue.ts); `kind` and `namespaced` are restated here for
 * the reader and checked against it.
 */
export interface ResourceDefinition {
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Subresources kubefake serves (`status`, `scale`); each must be one discovery lists. */
  subresources?: string[];
  nameRule?: ResourceType['nameRule'];
  fieldSelectors?: ResourceType['fieldSelectors'];
  allowUnconditionalUpdate: boolean;
  allowCreateOnUpdate: boolean;
  returnDeletedObject: boolean;
  strategy?: Strategy;
  /** The StatusStrategy `/status` writes run (with `subresources` listing `status`). */
  statusStrategy?: Strategy;
  /** The scale subresource (with `subresources` listing `scale`). */
  scale?: ResourceType['scale'];
  fieldLabelError?: ResourceType['fieldLabelError'];
  readWarnings?: ResourceType['requestWarnings'];
  createOnly?: ResourceType['createOnly'];
  computed?: ResourceType['computed'];
  /** Update-only subresources with a strategy of their own (`finalize`); each must be one discovery lists. */
  updateSubresources?: ResourceType['updateSubresources'];
  /** Connect subresources and their methods; each must be one discovery lists. */
  connectSubresources?: ResourceType['connectSubresources'];
  /** Create-only subresources and their handlers; each must be one discovery lists. */
  postSubresources?: ResourceType['postSubresources'];
  createAsSubresource?: ResourceType['createAsSubresource'];
  /** Loads what `strategy` and `statusStrategy` validate with, before the first write (modules loaded on first use). */
  loadValidation?: ResourceType['loadValidation'];
}

/** The generated discovery facts of a served built-in resource. */
export function builtinFacts(group: string, version: string, plural: string): BuiltinResourceFacts {
  const facts = BUILTIN_RESOURCES.find((r) => r.group === group && r.version === version && r.resource === plural);
  if (!facts) throw new Error(`invariant: ${group}/${version}/${plural} is not in the generated built-in catalogue`);
  return facts;
}

/** A built-in type: discovery data from the generated catalogue, behaviour from `def`. */
export function builtin(group: string, version: string, def: ResourceDefinition): ResourceType {
  const facts = builtinFacts(group, version, def.plural);
  if (facts.kind !== def.kind || facts.namespaced !== def.namespaced) {
    throw new Error(`invariant: ${group}/${version}/${def.plural} is ${facts.kind} (namespaced ${facts.namespaced}) upstream`);
  }
  for (const sub of def.subresources ?? []) {
    if (!facts.subresources.some((s) => s.name === sub)) throw new Error(`invariant: ${group}/${version}/${def.plural} has no ${sub} subresource upstream`);
  }
  const type: ResourceType = {
    group,
    version,
    kind: facts.kind,
    listKind: `${facts.kind}List`,
    plural: facts.resource,
    singular: facts.singular,
    namespaced: facts.namespaced,
    shortNames: [...facts.shortNames],
    categories: [...facts.categories],
    verbs: [...facts.verbs],
    subresources: def.subresources ?? [],
    discoverySubresources: facts.subresources.map((s) => ({ ...s, verbs: [...s.verbs] })),
    storageVersionHash: facts.storageVersionHash,
    nameRule: def.nameRule ?? 'dns1123-subdomain',
    fieldSelectors: def.fieldSelectors ?? null,
    allowUnconditionalUpdate: def.allowUnconditionalUpdate,
    allowCreateOnUpdate: def.allowCreateOnUpdate,
    returnDeletedObject: def.returnDeletedObject,
    unstructured: false,
    strategy: def.strategy ?? {},
  };
  if (def.statusStrategy) type.statusStrategy = def.statusStrategy;
  if (def.scale) type.scale = def.scale;
  if (def.fieldLabelError) type.fieldLabelError = def.fieldLabelError;
  if (def.readWarnings) type.requestWarnings = def.readWarnings;
  if (def.createOnly) type.createOnly = def.createOnly;
  if (def.computed) type.computed = def.computed;
  if (def.loadValidation) type.loadValidation = def.loadValidation;
  if (def.updateSubresources) {
    for (const sub of Object.keys(def.updateSubresources)) {
      if (!facts.subresources.some((s) => s.name === sub)) throw new Error(`invariant: ${group}/${version}/${def.plural} has no ${sub} subresource upstream`);
    }
    type.updateSubresources = def.updateSubresources;
  }
  for (const sub of [...Object.keys(def.connectSubresources ?? {}), ...Object.keys(def.postSubresources ?? {})]) {
    if (!facts.subresources.some((s) => s.name === sub)) throw new Error(`invariant: ${group}/${version}/${def.plural} has no ${sub} subresource upstream`);
  }
  if (def.connectSubresources) type.connectSubresources = def.connectSubresources;
  if (def.postSubresources) type.postSubresources = def.postSubresources;
  if (def.createAsSubresource) type.createAsSubresource = def.createAsSubresource;
  return type;
}
