// Structural schema engine for custom resources: pure functions over decoded JSON and one CRD
// version's openAPIV3Schema. Compile once per CRD version, then per write:
//
//   const compiled = compileSchema(version.schema.openAPIV3Schema);
//   const { unknownFields, error } = decodeCustomResource(compiled, obj);  // prune, nulls, embedded meta, defaults (in place)
//   unknownFieldMessages(unknownFields)             // fieldValidation Strict (400) / Warn (warnings)
//   validateValue(compiled, obj, { old })           // OpenAPI validation, ratcheted when `old` is given
//   validateEmbeddedResources(compiled, obj)        // embedded apiVersion/kind/metadata
//   validateListTypes(compiled, obj) / validateListTypesUpdate(compiled, obj, old)
//   withDefaults(stored, compiled.root)             // read path: defaults on a copy, stored object untouched
//
// The strategy runs them in that order after its kind/apiVersion and ObjectMeta checks (§2.1).
// For the status subresource validate `obj.status` against a schema compiled from the status
// property with `{ basePath: 'status' }`.
export { compileSchema, compilePattern } from './compile.ts';
export type { CompiledSchema, SchemaNode } from './schema-node.ts';
export { pruneUnknownFields } from './prune.ts';
export { pruneNonNullableNulls, applyDefaults, withDefaults } from './defaults.ts';
export { decodeCustomResource, type DecodeResult } from './decode.ts';
export { validateValue, validateToResult, type SchemaValidationOptions } from './validate.ts';
export { validateEmbeddedResources, coerceEmbeddedResources, decodeObjectMeta, normalizeObjectMeta, type CoerceResult } from './embedded.ts';
export { validateListTypes, validateListTypesUpdate } from './list-type.ts';
export { unknownFieldMessages } from './unknown-fields.ts';
export type { JSONSchemaProps, ValidationRule } from './types.ts';
