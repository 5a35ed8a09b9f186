// The schema steps of decoding a custom resource (customresource_handler.go
// unstructuredSchemaCoercer.apply, then the defaulter): prune, drop nulls, coerce embedded
// metadata, default. Mutates the object in place.
import type { FieldError } from '../errors/field-error.ts';
import type { CompiledSchema } from './schema-node.ts';
import { applyDefaults, pruneNonNullableNulls } from './defaults.ts';
import { coerceEmbeddedResources, decodeObjectMeta, normalizeObjectMeta } from './embedded.ts';
import { isObject } from './json-value.ts';
import { pruneUnknownFields } from './prune.ts';

export interface DecodeResult {
  /**
   * Paths of dropped fields in the order the server reports them: root metadata unknowns, then
   * schema-pruned paths sorted, then embedded-resource metadata unknowns sorted.
   */
  unknownFields: string[];
  /** A metadata/TypeMeta decode failure; the request fails (the HTTP layer renders it as 400). */
  error?: FieldError | string;
}

/**
 * Runs the schema-driven part of decoding on `obj` (a freshly decoded, caller-owned JSON object):
 * unknown fields pruned (root apiVersion/kind/metadata kept), non-nullable nulls without default
 * removed, embedded metadata normalised, defaults applied. The root metadata is normalised through
 * the typed ObjectMeta as well (unknown and empty fields dropped).
 */
export function decodeCustomResource(compiled: CompiledSchema, obj: Record<string, unknown>): DecodeResult {
  const unknownFields: string[] = [];
  const hasMeta = Object.hasOwn(obj, 'metadata');
  if (hasMeta) {
    const decoded = decodeObjectMeta(obj.metadata);
    if (decoded.error) return { unknownFields, error: decoded.error };
    for (const u of decoded.unknown) unknownFields.push(`metadata.${u}`);
  }
  // Loops, not push(...list): a body with ~100k unknown fields would overflow the stack.
  for (const u of pruneUnknownFields(obj, compiled.root, true)) unknownFields.push(u);
  pruneNonNullableNulls(obj, compiled.root);
  const coerced = coerceEmbeddedResources(compiled, obj);
  if (coerced.error) return { unknownFields, error: coerced.error };
  for (const u of coerced.unknownFields) unknownFields.push(u);
  if (hasMeta) obj.metadata = isObject(obj.metadata) ? normalizeObjectMeta(obj.metadata) : {};
  applyDefaults(obj, compiled.root);
  return { unknownFields };
}
