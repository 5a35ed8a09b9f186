// SchemaHas / HasSchemaWith and the predicates built on them (validation.go): which schemas of a
// spec have defaults, Kubernetes extensions, invalid types, non-atomic set items and so on. They
// decide which rules apply (create) or were already broken by the old object (update ratchets).
import { OPENAPI_V3_TYPES, validateMapListKeysMapSet } from './openapi-schema.ts';
import type { Schema, Spec } from './internal-types.ts';
import { tryNewStructural } from './structural.ts';
import { validateStructural } from './structural-validation.ts';
import { hasUnprunedDefaults } from './defaults.ts';

/** SchemaHas: whether pred holds for s or any schema nested in it. */
export function schemaHas(s: Schema | undefined, pred: (s: Schema) => boolean): boolean {
  if (s === undefined) return false;
  if (pred(s)) return true;
  if (s.items !== undefined) {
    if (schemaHas(s.items.schema, pred)) return true;
    for (const x of s.items.schemas ?? []) if (schemaHas(x, pred)) return true;
  }
  for (const x of s.allOf ?? []) if (schemaHas(x, pred)) return true;
  for (const x of s.anyOf ?? []) if (schemaHas(x, pred)) return true;
  for (const x of s.oneOf ?? []) if (schemaHas(x, pred)) return true;
  if (schemaHas(s.not, pred)) return true;
  for (const x of s.properties?.values() ?? []) if (schemaHas(x, pred)) return true;
  if (schemaHas(s.additionalProperties?.schema, pred)) return true;
  for (const x of s.patternProperties?.values() ?? []) if (schemaHas(x, pred)) return true;
  if (schemaHas(s.additionalItems?.schema, pred)) return true;
  for (const x of s.definitions?.values() ?? []) if (schemaHas(x, pred)) return true;
  for (const d of s.dependencies?.values() ?? []) if (schemaHas(d.schema, pred)) return true;
  return false;
}

/** The top-level schema and every per-version schema of a spec. */
export function specSchemas(spec: Spec): (Schema | undefined)[] {
  return [spec.validation?.openAPIV3Schema, ...spec.versions.map((v) => v.schema?.openAPIV3Schema)];
}

/** HasSchemaWith. */
export function hasSchemaWith(spec: Spec, pred: (s: Schema) => boolean): boolean {
  return specSchemas(spec).some((s) => s !== undefined && pred(s));
}

export const schemaHasDefaults = (s: Schema): boolean => schemaHas(s, (x) => x.default !== undefined);
export const specHasDefaults = (spec: Spec): boolean => hasSchemaWith(spec, schemaHasDefaults);

export function specHasKubernetesExtensions(spec: Spec): boolean {
  return hasSchemaWith(spec, (s) =>
    schemaHas(
      s,
      (x) => x.xEmbeddedResource || x.xPreserveUnknownFields !== undefined || x.xIntOrString || (x.xListMapKeys?.length ?? 0) > 0 || x.xListType !== undefined || (x.xValidations?.length ?? 0) > 0,
    ),
  );
}

/** allVersionsSpecifyOpenAPISchema. */
export function allVersionsSpecifyOpenAPISchema(spec: Spec): boolean {
  if (spec.validation?.openAPIV3Schema !== undefined) return true;
  return spec.versions.every((v) => v.schema?.openAPIV3Schema !== undefined);
}

function schemaIsNonStructural(s: Schema): boolean {
  const { ss, err } = tryNewStructural(s);
  if (err !== undefined) return true;
  return validateStructural('', ss).length > 0;
}

export const specHasNonStructuralSchema = (spec: Spec): boolean => hasSchemaWith(spec, schemaIsNonStructural);

/** schemaHasUnprunedDefaults, errors counting as "no". */
function schemaHasUnprunedDefaults(s: Schema): boolean {
  if (!schemaHasDefaults(s)) return false;
  const { ss, err } = tryNewStructural(s);
  if (err !== undefined || ss === undefined) return false;
  if (validateStructural('', ss).length > 0) return false;
  return hasUnprunedDefaults(ss);
}

export const specHasUnprunedDefaults = (spec: Spec): boolean => hasSchemaWith(spec, schemaHasUnprunedDefaults);

/** hasNonAtomicSetType. */
export function hasNonAtomicSetType(s: Schema): boolean {
  return schemaHas(s, (x) => {
    const is = x.items?.schema;
    if (x.xListType !== 'set' || is === undefined) return false;
    if (is.type === 'array') return is.xListType !== undefined && is.xListType !== 'atomic';
    if (is.type === 'object') return is.xMapType === undefined || is.xMapType !== 'atomic';
    return false;
  });
}

export const hasInvalidMapListKeysMapSet = (s: Schema): boolean => schemaHas(s, (x) => validateMapListKeysMapSet(x, '').length > 0);

/** SchemaHasInvalidTypes. */
export const schemaHasInvalidTypes = (s: Schema): boolean => schemaHas(s, (x) => x.type.length > 0 && !OPENAPI_V3_TYPES.includes(x.type));
export const specHasInvalidTypes = (spec: Spec): boolean => hasSchemaWith(spec, schemaHasInvalidTypes);

/** findPreexistingExpressions. */
export function findPreexistingExpressions(spec: Spec): { rules: Set<string>; messageExpressions: Set<string> } {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  for (const s of specSchemas(spec)) {
    schemaHas(s, (x) => {
      for (const r of x.xValidations ?? []) {
        rules.add(r.rule);
        if (r.messageExpression.length > 0) messageExpressions.add(r.messageExpression);
      }
      return false;
    });
  }
  return { rules, messageExpressions };
}
