// The scale subresource (autoscaling/v1 Scale) of a resource: how a Scale is read from an object
// and written back into it. Two flavours with different rules and error texts:
//   - built-in workloads (pkg/registry/apps/{deployment,replicaset,statefulset}/storage ScaleREST):
//     spec.replicas, status.replicas and spec.selector; the Scale is validated (ValidateScale) and
//     its uid is a precondition;
//   - custom resources (apiextensions-apiserver pkg/registry/customresource/etcd.go ScaleREST):
//     the CRD's specReplicasPath, statusReplicasPath and labelSelectorPath read with
//     unstructured.Nested*, an absent spec value is an error on GET and must be set by an update.
import { badRequest, conflict, internalError, invalid, plainServerError, StatusError } from '../errors/status-error.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { formatLabelSelector } from '../selectors/format-label-selector.ts';
import { goDynamicTypeName, goSprintV, toGoValue } from '../patch/go-value.ts';
import { validateNonnegativeField } from '../validation/meta-fields.ts';
import { validateObjectMeta } from '../validation/object-meta.ts';
import { isPlainObject, type KubeObject } from './object.ts';
import { replicasPathOf, type ReplicasPathMappings } from '../apply/scale-handler.ts';

export const SCALE_API_VERSION = 'autoscaling/v1';
export const SCALE_KIND = 'Scale';

/** The values a Scale carries besides its metadata. */
export interface ScaleValues {
  specReplicas: number;
  statusReplicas: number;
  selector: string;
}

export interface ScaleSubresource {
  /** ScaleREST.Get: the Scale of a stored object; throws the StatusError the REST answers. */
  read(obj: KubeObject): KubeObject;
  /** The Scale an update starts from (what a PATCH applies to); throws on unreadable objects. */
  current(obj: KubeObject): KubeObject;
  /**
   * scaleUpdatedObjectInfo.UpdatedObject: the object with the requested Scale written into it
   * (`obj` is a copy the caller owns). Throws the REST's StatusErrors.
   */
  write(obj: KubeObject, scale: KubeObject): KubeObject;
  /** ScaleREST.Update's answer: the Scale of the object as stored. */
  answer(obj: KubeObject): KubeObject;
  /** The ScaleHandler's view of the parent: the group/version new owners are recorded in, and the replicas path per version. */
  managedFields: { groupVersion: string; mappings: ReplicasPathMappings };
}

/** autoscaling/v1 Scale JSON as Go serialises it (spec.replicas is omitempty, status.replicas is not). */
export function scaleObject(obj: KubeObject, values: ScaleValues): KubeObject {
  const m = obj.metadata ?? {};
  const metadata: Record<string, unknown> = {};
  for (const key of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (m[key] !== undefined && m[key] !== '') metadata[key] = m[key];
  }
  const status: Record<string, unknown> = { replicas: values.statusReplicas };
  if (values.selector) status.selector = values.selector;
  return {
    kind: SCALE_KIND,
    apiVersion: SCALE_API_VERSION,
    metadata,
    spec: values.specReplicas ? { replicas: values.specReplicas } : {},
    status,
  } as KubeObject;
}

/** The replicas of a decoded Scale body as the typed int32 field holds them. */
export function scaleSpecReplicas(scale: KubeObject): number {
  const v = isPlainObject(scale.spec) ? scale.spec.replicas : undefined;
  return typeof v === 'number' ? v : 0;
}

// ---- built-in workloads ----

/**
 * Scale of a built-in workload (deployments, replicasets, statefulsets, replicationcontrollers):
 * the ScaleRESTs differ only in the resource named by their conflict error and in how the
 * selector is read: a LabelSelector (apps/v1), or for a ReplicationController a plain label map
 * (`labels.SelectorFromSet(rc.Spec.Selector).String()`).
 */
export function builtinScale(group: string, plural: string, knownVersions: readonly string[], selectorIsMap = false): ScaleSubresource {
  const scaleResource = { group, resource: `${plural}/scale` };
  const gv = (v: string) => (group ? `${group}/${v}` : v);
  // The storage's ReplicasPathMappings: every version the scheme knows the kind in.
  const replicas = replicasPathOf('.spec.replicas');
  const managedFields = { groupVersion: gv('v1'), mappings: new Map(knownVersions.map((v) => [gv(v), replicas])) };
  const values = (obj: KubeObject): ScaleValues => {
    const raw = getPath(obj, ['spec', 'selector']);
    const selector = formatLabelSelector(selectorIsMap ? { matchLabels: isPlainObject(raw) ? raw : {} } : raw);
    // LabelSelectorAsSelector fails only on selectors validation already refuses.
    if (selector === '<invalid>') throw badRequest('invalid label selector');
    return {
      specReplicas: int32(getPath(obj, ['spec', 'replicas'])),
      statusReplicas: int32(getPath(obj, ['status', 'replicas'])),
      selector,
    };
  };
  return {
    read: (obj) => scaleObject(obj, values(obj)),
    current: (obj) => scaleObject(obj, values(obj)),
    write(obj, scale) {
      const name = obj.metadata?.name ?? '';
      const errors = validateScale(scale);
      if (errors.length) throw invalid({ group: 'autoscaling', kind: SCALE_KIND }, name, errors);
      const uid = scale.metadata?.uid;
      if (uid && uid !== obj.metadata?.uid) {
        throw conflict(scaleResource, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${obj.metadata?.uid ?? ''}`);
      }
      const spec = isPlainObject(obj.spec) ? obj.spec : (obj.spec = {});
      (spec as Record<string, unknown>).replicas = scaleSpecReplicas(scale);
      // `deployment.ResourceVersion = scale.ResourceVersion`: empty means unconditional.
      const rv = scale.metadata?.resourceVersion;
      if (rv) obj.metadata!.resourceVersion = rv;
      else delete obj.metadata!.resourceVersion;
      return obj;
    },
    answer: (obj) => scaleObject(obj, values(obj)),
    managedFields,
  };
}

/** autoscaling validation.ValidateScale. */
function validateScale(scale: KubeObject): FieldError[] {
  const errors = validateObjectMeta(scale.metadata, { namespaced: true, nameRule: 'dns1123-subdomain' });
  const replicas = scaleSpecReplicas(scale);
  errors.push(...validateNonnegativeField(replicas, 'spec.replicas'));
  return errors;
}

// ---- custom resources ----

/** apiextensions CustomResourceSubresourceScale. */
export interface CustomResourceScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** Marks a Scale whose object had no spec replicas (`const invalidSpecReplicas = -2147483648`). */
const INVALID_SPEC_REPLICAS = -2147483648;
const MAX_INT32 = 2147483647;

/**
 * The scale of a custom resource version; `managedFields` is the CRD's replicas path per version
 * (null for versions without scale) and this version's group/version.
 */
export function customResourceScale(paths: CustomResourceScalePaths, managedFields: ScaleSubresource['managedFields']): ScaleSubresource {
  const { specReplicasPath } = paths;
  /** scaleFromCustomResource: the values and whether spec replicas exist, or Go's accessor error. */
  const fromObject = (obj: KubeObject): { values: ScaleValues; found: boolean } => {
    const spec = nestedInt64(obj, specReplicasPath);
    if ('error' in spec) throw plainServerError(spec.error);
    const status = nestedInt64(obj, paths.statusReplicasPath);
    if ('error' in status) throw plainServerError(status.error);
    let selector = '';
    if (paths.labelSelectorPath) {
      const s = nestedString(obj, paths.labelSelectorPath);
      if ('error' in s) throw plainServerError(s.error);
      selector = s.value;
    }
    // int32(...) conversions of the int64 values.
    return { values: { specReplicas: toInt32(spec.value), statusReplicas: toInt32(status.value), selector }, found: spec.found };
  };
  return {
    read(obj) {
      const { values, found } = fromObject(obj);
      if (!found) throw internalError(`the spec replicas field ${JSON.stringify(specReplicasPath)} does not exist`);
      return scaleObject(obj, values);
    },
    current(obj) {
      const { values, found } = fromObject(obj);
      return scaleObject(obj, found ? values : { ...values, specReplicas: INVALID_SPEC_REPLICAS });
    },
    write(obj, scale) {
      const replicas = scaleSpecReplicas(scale);
      if (replicas === INVALID_SPEC_REPLICAS) throw badRequest(`the spec replicas field ${JSON.stringify(specReplicasPath)} cannot be empty`);
      const error = setNestedField(obj, splitPath(specReplicasPath), replicas);
      if (error) throw plainServerError(error);
      // Only a resourceVersion the client sent is a precondition; otherwise the stored one is kept.
      const rv = scale.metadata?.resourceVersion;
      if (rv) obj.metadata!.resourceVersion = rv;
      return obj;
    },
    answer(obj) {
      try {
        return scaleObject(obj, fromObject(obj).values);
      } catch (err) {
        if (err instanceof StatusError) throw badRequest(err.message);
        throw err;
      }
    },
    managedFields,
  };
}

/**
 * The customResourceValidator's scale checks (ValidateScaleSpec / ValidateScaleStatus): the field
 * path is the CRD's path as written, leading dot included.
 */
export function validateCustomResourceScale(obj: KubeObject, paths: CustomResourceScalePaths, parts: { spec: boolean; status: boolean }): FieldError[] {
  const errors: FieldError[] = [];
  const replicasErrors = (path: string) => {
    const r = nestedInt64(obj, path);
    if ('error' in r) errors.push(fieldError.invalid(path, 0, r.error));
    else if (r.value < 0) errors.push(fieldError.invalid(path, r.value, 'should be a non-negative integer'));
    else if (r.value > MAX_INT32) errors.push(fieldError.invalid(path, r.value, `should be less than or equal to ${MAX_INT32}`));
  };
  if (parts.spec) replicasErrors(paths.specReplicasPath);
  if (parts.status) {
    replicasErrors(paths.statusReplicasPath);
    if (paths.labelSelectorPath) {
      const s = nestedString(obj, paths.labelSelectorPath);
      if ('error' in s) errors.push(fieldError.invalid(paths.labelSelectorPath, '', s.error));
    }
  }
  return errors;
}

// ---- unstructured.Nested* ----

/** strings.Split(strings.TrimPrefix(path, "."), ".") */
const splitPath = (path: string): string[] => path.replace(/^\./, '').split('.');

const jsonPath = (fields: readonly string[]) => '.' + fields.join('.');

type Nested<T> = { value: T; found: boolean } | { error: string };

/** NestedFieldNoCopy. */
function nestedField(obj: unknown, fields: readonly string[]): { value: unknown; found: boolean } | { error: string } {
  let val: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { value: undefined, found: false };
    if (!isPlainObject(val)) {
      return { error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goSprintV(toGoValue(val))} is of the type ${goDynamicTypeName(val)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(val, fields[i]!)) return { value: undefined, found: false };
    val = val[fields[i]!];
  }
  return { value: val, found: true };
}

/** NestedInt64: integral JSON numbers decode to int64, anything else is an accessor error. */
function nestedInt64(obj: unknown, path: string): Nested<number> {
  const fields = splitPath(path);
  const r = nestedField(obj, fields);
  if ('error' in r) return r;
  if (!r.found) return { value: 0, found: false };
  if (typeof r.value === 'number' && Number.isInteger(r.value)) return { value: r.value, found: true };
  return { error: `${jsonPath(fields)} accessor error: ${goSprintV(toGoValue(r.value))} is of the type ${goDynamicTypeName(r.value)}, expected int64` };
}

function nestedString(obj: unknown, path: string): Nested<string> {
  const fields = splitPath(path);
  const r = nestedField(obj, fields);
  if ('error' in r) return r;
  if (!r.found) return { value: '', found: false };
  if (typeof r.value === 'string') return { value: r.value, found: true };
  return { error: `${jsonPath(fields)} accessor error: ${goSprintV(toGoValue(r.value))} is of the type ${goDynamicTypeName(r.value)}, expected string` };
}

/** SetNestedField: creates missing maps on the way; a non-map in the way is an error. */
function setNestedField(obj: KubeObject, fields: readonly string[], value: unknown): string | undefined {
  let m = obj as Record<string, unknown>;
  for (let i = 0; i < fields.length - 1; i++) {
    const next = m[fields[i]!];
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      m[fields[i]!] = created;
      m = created;
    } else if (isPlainObject(next)) {
      m = next;
    } else {
      return `value cannot be set because ${jsonPath(fields.slice(0, i + 1))} is not a map[string]interface{}`;
    }
  }
  m[fields[fields.length - 1]!] = value;
  return undefined;
}

/** Go's int32(int64) conversion (wraps around). */
const toInt32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/** An int32 field as the typed object holds it (missing or non-integer is 0). */
const int32 = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

function getPath(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}
