// The ResourceTypes a CustomResourceDefinition serves: one per served version, all stored in one
// bucket, with a strategy built from the CRD (apiextensions-apiserver pkg/registry/customresource
// strategy.go and validator.go, plus the schema steps of customresource_handler.go's decoder).
import { isPlainObject, parseApiVersion, type KubeObject } from '../apis/object.ts';
import type { PrinterColumn, ResourceType, Strategy } from '../apis/resource-type.ts';
import { fieldError, fieldErrorMessage, type FieldError } from '../errors/field-error.ts';
import { compileSchema, decodeCustomResource, unknownFieldMessages, validateEmbeddedResources, validateListTypes, validateListTypesUpdate, validateValue, withDefaults, type CompiledSchema } from '../schema/index.ts';
import type { JSONSchemaProps } from '../schema/types.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { lazyCustomResourceCel } from '../cel/lazy.ts';
import { customResourceScale, type CustomResourceScalePaths } from '../apis/scale.ts';
import { replicasPathOf, type ReplicasPathMappings } from '../apply/scale-handler.ts';
import { customResourceFieldSelectors, customResourceStatusStrategy, mainScaleErrors, scalePathsOf } from './custom-resource-subresources.ts';
import { customResourceCodecs } from './conversion/storage-codec.ts';
import { deprecationWarningOf } from './deprecation-warning.ts';

/** Discovery verbs of a custom resource, in the order the apiextensions server lists them. */
export const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
/** What a terminating CRD still allows. */
export const TERMINATING_VERBS = ['delete', 'deletecollection', 'get', 'list', 'watch'];

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: unknown; scale?: unknown };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: unknown;
}

interface AcceptedNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

/** The served versions of an established CRD as ResourceTypes (empty if it serves nothing). */
export function customResourceTypes(crd: KubeObject, options: { terminating: boolean }): ResourceType[] {
  const spec = (crd.spec ?? {}) as { group?: string; scope?: string; versions?: CrdVersion[] };
  const names = ((crd.status as { acceptedNames?: AcceptedNames } | undefined)?.acceptedNames ?? {}) as AcceptedNames;
  const group = spec.group ?? '';
  const kind = names.kind ?? '';
  // Every version's schema, served or not: objects read back are defaulted at their stored version.
  const compiledByVersion = new Map<string, CompiledSchema>();
  for (const v of spec.versions ?? []) if (v.schema?.openAPIV3Schema) compiledByVersion.set(v.name, compileSchema(v.schema.openAPIV3Schema));
  const fromStorage = storageDefaulter(group, compiledByVersion);
  const versions = (spec.versions ?? []).filter((v) => v.served);
  const storageVersion = (spec.versions ?? []).find((v) => v.storage)?.name;
  // Several versions: writes are converted to the storage version, reads to the version asked for.
  const codecFor = customResourceCodecs(spec, compiledByVersion);
  const replicasPaths = replicasPathMappings(group, spec.versions ?? []);
  return versions.map((v) => {
    const schema = v.schema?.openAPIV3Schema;
    const compiled = compiledByVersion.get(v.name);
    const hasStatus = isPlainObject(v.subresources?.status);
    const subresources = [...(hasStatus ? ['status'] : []), ...(isPlainObject(v.subresources?.scale) ? ['scale'] : [])];
    const scale = scalePathsOf(v.subresources?.scale);
    const namespaced = spec.scope !== 'Cluster';
    const type: ResourceType = {
      group,
      version: v.name,
      kind,
      listKind: names.listKind || `${kind}List`,
      plural: names.plural ?? '',
      singular: names.singular || kind.toLowerCase(),
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: options.terminating ? TERMINATING_VERBS : CUSTOM_RESOURCE_VERBS,
      subresources,
      nameRule: 'dns1123-subdomain',
      fieldSelectors: customResourceFieldSelectors(namespaced, v.selectableFields),
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      unstructured: true,
      strategy: customResourceStrategy({ group, version: v.name, kind, compiled, hasStatus, scale }),
      terminating: options.terminating,
    };
    if (storageVersion && storageVersion !== v.name) type.storageVersion = storageVersion;
    if (schema) type.schema = schema;
    if (v.additionalPrinterColumns) type.printerColumns = v.additionalPrinterColumns;
    const warning = deprecationWarningOf(group, kind, v, versions);
    if (warning) type.requestWarnings = [warning];
    if (compiled) type.decodeBody = (obj) => decodeBody(compiled, obj);
    if (compiledByVersion.size > 0) type.fromStorage = fromStorage;
    if (codecFor) type.codec = codecFor(v.name);
    if (hasStatus) type.statusStrategy = customResourceStatusStrategy({ apiVersion: `${group}/${v.name}`, kind, compiled, schema, scale });
    if (scale) type.scale = customResourceScale(scale, { groupVersion: `${group}/${v.name}`, mappings: replicasPaths });
    return type;
  });
}

/** The replicas path of every version, served or not (null without scale), as the CRD handler maps them. */
function replicasPathMappings(group: string, versions: readonly CrdVersion[]): ReplicasPathMappings {
  return new Map(versions.map((v) => {
    const scale = scalePathsOf(v.subresources?.scale);
    return [`${group}/${v.name}`, scale ? replicasPathOf(scale.specReplicasPath) : null];
  }));
}

/**
 * The storage codec's unstructuredDefaulter (customresource_handler.go crdConversionRESTOptionsGetter):
 * an object read from storage gets the defaults of the version it was stored at, on every get,
 * list and watch, without being written back.
 */
function storageDefaulter(group: string, compiledByVersion: ReadonlyMap<string, CompiledSchema>): (obj: KubeObject) => KubeObject {
  return (obj) => {
    const stored = parseApiVersion(obj.apiVersion ?? '');
    if (stored.group !== group) return obj;
    const compiled = compiledByVersion.get(stored.version);
    return compiled ? withDefaults(obj, compiled.root) : obj;
  };
}

function decodeBody(compiled: CompiledSchema, obj: KubeObject): { unknownFields: string[]; error?: string } {
  const result = decodeCustomResource(compiled, obj as Record<string, unknown>);
  const unknownFields = unknownFieldMessages(result.unknownFields);
  if (result.error === undefined) return { unknownFields };
  // A coercion failure is a *field.Error, rendered whole ("<path>: Invalid value: <v>: <detail>").
  return { unknownFields, error: typeof result.error === 'string' ? result.error : fieldErrorMessage(result.error) };
}

interface StrategyInput {
  group: string;
  version: string;
  kind: string;
  compiled: CompiledSchema | undefined;
  hasStatus: boolean;
  scale: CustomResourceScalePaths | undefined;
}

const nonMetadata = (obj: KubeObject) => {
  const { metadata: _m, ...rest } = obj;
  return rest;
};

function customResourceStrategy(input: StrategyInput): Strategy {
  const apiVersion = `${input.group}/${input.version}`;
  const validateTypeMeta = (obj: KubeObject): FieldError[] => {
    const errs: FieldError[] = [];
    if (obj.kind !== input.kind) errs.push(fieldError.invalid('kind', obj.kind ?? '', `must be ${input.kind}`));
    if (obj.apiVersion !== apiVersion) errs.push(fieldError.invalid('apiVersion', obj.apiVersion ?? '', `must be ${apiVersion}`));
    return errs;
  };
  const cel = input.compiled ? lazyCustomResourceCel(input.compiled) : undefined;
  const validateBody = (obj: KubeObject, old?: KubeObject): FieldError[] => {
    if (!input.compiled) return mainScaleErrors(obj, input.scale);
    const errs = validateValue(input.compiled, obj, old ? { old } : {});
    errs.push(...mainScaleErrors(obj, input.scale));
    errs.push(...validateEmbeddedResources(input.compiled, obj as Record<string, unknown>));
    errs.push(...(old ? validateListTypesUpdate(input.compiled, obj as Record<string, unknown>, old as Record<string, unknown>) : validateListTypes(input.compiled, obj as Record<string, unknown>)));
    // x-kubernetes-validations last, unless the errors so far block them.
    if (cel) errs.push(...cel.validate(errs, obj, old));
    return errs;
  };
  return {
    validateTypeMeta,
    prepareForCreate(obj) {
      if (input.hasStatus) delete obj.status;
      obj.metadata!.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (input.hasStatus) {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      }
      // Any change outside metadata is a new generation (status too, without the subresource).
      obj.metadata!.generation = (old.metadata?.generation ?? 0) + (deepEqual(nonMetadata(obj), nonMetadata(old)) ? 0 : 1);
    },
    validate: (obj) => validateBody(obj),
    validateUpdate: (obj, old) => validateBody(obj, old),
    warnings: (obj, old) => [...(cel?.warnings(obj) ?? []), ...finalizerWarnings(obj, old)],
  };
}

const WELL_KNOWN_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/** WarningsOnCreate/Update: new finalizers should be domain-qualified. */
function finalizerWarnings(obj: KubeObject, old?: KubeObject): string[] {
  const before = new Set(old?.metadata?.finalizers ?? []);
  const out: string[] = [];
  for (const f of obj.metadata?.finalizers ?? []) {
    if (before.has(f) || WELL_KNOWN_FINALIZERS.has(f) || f.includes('/')) continue;
    out.push(
      f.includes('.')
        ? `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
        : `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
    );
  }
  return out;
}
