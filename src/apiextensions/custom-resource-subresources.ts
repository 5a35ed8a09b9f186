// What a CRD version's `subresources` and `selectableFields` add to its ResourceType
// (apiextensions-apiserver pkg/registry/customresource/{status_strategy.go,validator.go,etcd.go,
// strategy.go}): the status strategy `/status` writes run, the scale checks of the main strategy,
// and the field-selector keys.
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import type { Strategy } from '../apis/resource-type.ts';
import { validateCustomResourceScale, type CustomResourceScalePaths } from '../apis/scale.ts';
import { lazyCustomResourceCel } from '../cel/lazy.ts';
import type { FieldError } from '../errors/field-error.ts';
import { JsonPath } from '../go/jsonpath.ts';
import { goSprintV, toGoValue } from '../patch/go-value.ts';
import { compileSchema, validateListTypesUpdate, validateValue, type CompiledSchema } from '../schema/index.ts';
import type { JSONSchemaProps } from '../schema/types.ts';

/** A served version's `subresources.scale` when it is a usable object. */
export function scalePathsOf(scale: unknown): CustomResourceScalePaths | undefined {
  if (!isPlainObject(scale) || typeof scale.specReplicasPath !== 'string' || typeof scale.statusReplicasPath !== 'string') return undefined;
  const paths: CustomResourceScalePaths = { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath };
  if (typeof scale.labelSelectorPath === 'string' && scale.labelSelectorPath !== '') paths.labelSelectorPath = scale.labelSelectorPath;
  return paths;
}

/** ValidateScaleSpec and ValidateScaleStatus of the main strategy's Validate/ValidateUpdate. */
export function mainScaleErrors(obj: KubeObject, paths: CustomResourceScalePaths | undefined): FieldError[] {
  return paths ? validateCustomResourceScale(obj, paths, { spec: true, status: true }) : [];
}

interface StatusStrategyInput {
  apiVersion: string;
  kind: string;
  /** The whole version schema (list types are checked on the whole object). */
  compiled: CompiledSchema | undefined;
  schema: JSONSchemaProps | undefined;
  scale: CustomResourceScalePaths | undefined;
}

/**
 * statusStrategy: an update keeps everything of the stored object but `status` (and the request's
 * managedFields, which the field manager computed for the status write); generation never moves.
 * Validation covers metadata (the registry's part), the status schema only — rooted at `status`, so
 * causes read `status.num` while the message says `num in body` — the scale status paths, list
 * types (reported only when the old object had no list-type errors), then the CEL rules of the
 * whole object unless the errors so far block them.
 */
export function customResourceStatusStrategy(input: StatusStrategyInput): Strategy {
  const statusSchema = input.schema?.properties?.status;
  const statusCompiled = statusSchema ? compileSchema(statusSchema) : undefined;
  const cel = input.compiled ? lazyCustomResourceCel(input.compiled) : undefined;
  return {
    prepareForUpdate(obj, old) {
      const hasStatus = Object.hasOwn(obj, 'status');
      const status = obj.status;
      const managedFields = obj.metadata?.managedFields;
      for (const key of Object.keys(obj)) delete obj[key];
      Object.assign(obj, structuredClone(old));
      // The old object as the REST reads it: in the version and kind the request addresses.
      obj.apiVersion = input.apiVersion;
      obj.kind = input.kind;
      const meta = isPlainObject(obj.metadata) ? obj.metadata : (obj.metadata = {});
      if (managedFields === undefined) delete meta.managedFields;
      else meta.managedFields = managedFields;
      if (hasStatus) obj.status = status;
      else delete obj.status;
    },
    validateUpdate(obj, old) {
      const errs: FieldError[] = [];
      if (Object.hasOwn(obj, 'status') && statusCompiled) {
        const options = old.status === undefined ? { basePath: 'status' } : { basePath: 'status', old: old.status };
        errs.push(...validateValue(statusCompiled, obj.status, options));
      }
      if (input.scale) errs.push(...validateCustomResourceScale(obj, input.scale, { spec: false, status: true }));
      if (input.compiled) errs.push(...validateListTypesUpdate(input.compiled, obj as Record<string, unknown>, old as Record<string, unknown>));
      if (cel) errs.push(...cel.validate(errs, obj, old));
      return errs;
    },
    // statusStrategy.WarningsOnUpdate has none (no finalizer warnings on status writes); ratcheted
    // CEL failures are context warnings, which every write path sends.
    warnings: (obj) => cel?.warnings(obj) ?? [],
  };
}

/**
 * The field-selector keys of a custom resource version (crConverter.ConvertFieldLabel and the
 * strategy's GetAttrs): metadata.name, metadata.namespace when namespaced, and each selectable
 * field under its jsonPath without the leading dot, read as fmt.Sprint of the value ("" when
 * missing or null).
 */
export function customResourceFieldSelectors(namespaced: boolean, selectableFields: unknown): Record<string, (obj: KubeObject) => string> {
  const fields: Record<string, (obj: KubeObject) => string> = {
    'metadata.name': (obj) => (typeof obj.metadata?.name === 'string' ? obj.metadata.name : ''),
  };
  if (namespaced) fields['metadata.namespace'] = (obj) => (typeof obj.metadata?.namespace === 'string' ? obj.metadata.namespace : '');
  for (const sf of Array.isArray(selectableFields) ? selectableFields : []) {
    if (!isPlainObject(sf) || typeof sf.jsonPath !== 'string') continue;
    const name = sf.jsonPath.replace(/^\./, '');
    let path: JsonPath;
    try {
      path = new JsonPath(`{${sf.jsonPath}}`);
    } catch {
      // CRD validation only admits simple paths; an unparsable one never selects anything.
      continue;
    }
    fields[name] = (obj) => {
      const results = path.findResults(obj);
      const value = results[0]?.[0];
      return value === undefined || value === null ? '' : goSprintV(toGoValue(value));
    };
  }
  return fields;
}
