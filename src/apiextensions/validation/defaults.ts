// pkg/apiserver/schema/defaulting/validation.go (ValidateDefaults) and prune.go (the unpruned-
// defaults ratchet). The pruning check is done here; checking a default against its schema
// (ValidateCustomResource), ObjectMeta coercion of defaults and CEL on defaults belong to the
// schema engine and arrive through the CheckDefault hook.
import { deepEqual } from '../../util/deep-equal.ts';
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import { rawOf } from './internal-types.ts';
import { prune } from './pruning.ts';
import type { Structural } from './structural.ts';

/**
 * Validates a default value against the schema node it sits on. `path` is the path of the default
 * itself (`...properties[x].default`), the root path Go's ValidateCustomResource reports under.
 */
export type CheckDefault = (value: unknown, schema: JSONSchemaProps, path: string) => FieldError[];

const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/** ValidateDefaults(ctx, pth, s, isResourceRoot=true, requirePrunedDefaults). */
export function validateDefaults(path: string, s: Structural, requirePrunedDefaults: boolean, checkDefault: CheckDefault | undefined): FieldError[] {
  const root = s.xEmbeddedResource ? s : { ...s, xEmbeddedResource: true };
  return validate(path, root, false, requirePrunedDefaults, checkDefault);
}

function validate(path: string, s: Structural | undefined, insideMeta: boolean, requirePrunedDefaults: boolean, checkDefault: CheckDefault | undefined): FieldError[] {
  if (s === undefined) return [];
  if (s.xEmbeddedResource) insideMeta = false;
  const errs: FieldError[] = [];
  const defaultPath = fieldPath.child(path, 'default');

  if (s.default !== undefined) {
    // Defaults inside TypeMeta/ObjectMeta are validated within a surrounding object (metadata
    // coercion included): all of that is the hook's job. Elsewhere the pruning check comes first.
    if (!insideMeta && requirePrunedDefaults) {
      const pruned = structuredClone(s.default);
      prune(pruned, s, s.xEmbeddedResource);
      if (!deepEqual(pruned, s.default)) errs.push(fieldError.invalid(defaultPath, s.default, 'must not have unknown fields'));
    }
    if (checkDefault !== undefined) {
      errs.push(...checkDefault(s.default, (s.source ? rawOf(s.source) : {}) as JSONSchemaProps, defaultPath));
    }
  }

  // additionalProperties is not followed: defaults are forbidden there.
  errs.push(...validate(fieldPath.child(path, 'items'), s.items, insideMeta, requirePrunedDefaults, checkDefault));
  for (const [k, sub] of s.properties ?? []) {
    const subInsideMeta = insideMeta || (s.xEmbeddedResource && META_FIELDS.has(k));
    errs.push(...validate(fieldPath.key(fieldPath.child(path, 'properties'), k), sub, subInsideMeta, requirePrunedDefaults, checkDefault));
  }
  return errs;
}

/**
 * schemaHasUnprunedDefaults: whether pruning any default changes it. Go prunes each default inside
 * its surrounding object from the root, with ObjectMeta coercion; defaults under TypeMeta/ObjectMeta
 * are taken as pruned here (approximation: that coercion is the schema engine's).
 */
export function hasUnprunedDefaults(s: Structural): boolean {
  return unpruned(s.xEmbeddedResource ? s : { ...s, xEmbeddedResource: true }, false);
}

function unpruned(s: Structural | undefined, insideMeta: boolean): boolean {
  if (s === undefined) return false;
  if (s.xEmbeddedResource) insideMeta = false;
  if (s.default !== undefined && !insideMeta) {
    const pruned = structuredClone(s.default);
    prune(pruned, s, s.xEmbeddedResource);
    if (!deepEqual(pruned, s.default)) return true;
  }
  if (unpruned(s.additionalProperties?.structural, insideMeta) || unpruned(s.items, insideMeta)) return true;
  for (const [k, sub] of s.properties ?? []) {
    if (unpruned(sub, insideMeta || (s.xEmbeddedResource && META_FIELDS.has(k)))) return true;
  }
  return false;
}
