// The ResourceTypes a CustomResourceDefinition serves: one per served version, all stored in one
// bucket, with a strategy built from the CRD (apiextensions-apiserver pkg/registry/customresource
// strategy.go and validator.go, plus the schema steps of customresource_handler.go's decoder).
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import type { PrinterColumn, ResourceType, Strategy } from '../apis/resource-type.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { compileSchema, decodeCustomResource, unknownFieldMessages, validateEmbeddedResources, validateListTypes, validateListTypesUpdate, validateValue, type CompiledSchema } from '../schema/index.ts';
import type { JSONSchemaProps } from '../schema/types.ts';
import { deepEqual } from '../util/deep-equal.ts';

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
  const versions = (spec.versions ?? []).filter((v) => v.served);
  const storageVersion = (spec.versions ?? []).find((v) => v.storage)?.name;
  return versions.map((v) => {
    const schema = v.schema?.openAPIV3Schema;
    const compiled = schema ? compileSchema(schema) : undefined;
    const hasStatus = isPlainObject(v.subresources?.status);
    const subresources = [...(hasStatus ? ['status'] : []), ...(isPlainObject(v.subresources?.scale) ? ['scale'] : [])];
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
      fieldSelectors: null,
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      unstructured: true,
      strategy: customResourceStrategy({ group, version: v.name, kind, compiled, hasStatus }),
      terminating: options.terminating,
    };
    if (storageVersion && storageVersion !== v.name) type.storageVersion = storageVersion;
    if (schema) type.schema = schema;
    if (v.additionalPrinterColumns) type.printerColumns = v.additionalPrinterColumns;
    const warning = deprecationWarning(group, kind, v, versions);
    if (warning) type.requestWarnings = [warning];
    if (compiled) type.decodeBody = (obj) => decodeBody(compiled, obj);
    return type;
  });
}

function decodeBody(compiled: CompiledSchema, obj: KubeObject): { unknownFields: string[]; error?: string } {
  const result = decodeCustomResource(compiled, obj as Record<string, unknown>);
  const unknownFields = unknownFieldMessages(result.unknownFields);
  if (result.error === undefined) return { unknownFields };
  return { unknownFields, error: typeof result.error === 'string' ? result.error : `${result.error.field}: ${result.error.detail}` };
}

/** `<G>/<v> <Kind> is deprecated; use <G>/<newer> <Kind>` unless the version has its own text. */
function deprecationWarning(group: string, kind: string, v: CrdVersion, served: CrdVersion[]): string | undefined {
  if (!v.deprecated) return undefined;
  if (v.deprecationWarning !== undefined) return v.deprecationWarning;
  // TODO(#10): "; use <newer version>" needs version priority across served non-deprecated versions.
  void served;
  return `${group}/${v.name} ${kind} is deprecated`;
}

interface StrategyInput {
  group: string;
  version: string;
  kind: string;
  compiled: CompiledSchema | undefined;
  hasStatus: boolean;
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
  const validateBody = (obj: KubeObject, old?: KubeObject): FieldError[] => {
    if (!input.compiled) return [];
    const errs = validateValue(input.compiled, obj, old ? { old } : {});
    errs.push(...validateEmbeddedResources(input.compiled, obj as Record<string, unknown>));
    errs.push(...(old ? validateListTypesUpdate(input.compiled, obj as Record<string, unknown>, old as Record<string, unknown>) : validateListTypes(input.compiled, obj as Record<string, unknown>)));
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
    warnings: (obj, old) => finalizerWarnings(obj, old),
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
