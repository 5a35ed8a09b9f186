// validationOptions (validation.go): which rules apply. On create everything is required; on update
// a rule the old object already broke is relaxed (ratcheting), computed from the old object exactly
// as ValidateCustomResourceDefinitionUpdate does.
import type { CelCompiler } from './cel-hook.ts';
import { hasValidConversionReviewVersionOrEmpty } from './conversion.ts';
import type { CheckDefault } from './defaults.ts';
import { isConditionTrue, semanticEqual, type Crd, type Validation } from './internal-types.ts';
import { MAX_SELECTABLE_FIELDS } from './selectable-fields.ts';
import {
  allVersionsSpecifyOpenAPISchema,
  findPreexistingExpressions,
  hasInvalidMapListKeysMapSet,
  hasNonAtomicSetType,
  hasSchemaWith,
  specHasInvalidTypes,
  specHasNonStructuralSchema,
  specHasUnprunedDefaults,
} from './schema-has.ts';
import { validateCABundle } from '../../validation/webhook-client-config.ts';

export interface ValidationOptions {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  preexistingRules: ReadonlySet<string>;
  preexistingMessageExpressions: ReadonlySet<string>;
  versionsWithUnchangedSchemas: ReadonlySet<string>;
  suppressPerExpressionCost: boolean;
  allowInvalidCABundle: boolean;
  /** Versions ("" for the top level) whose unchanged, already too long selectableFields are let through. */
  allowTooManySelectableFields: ReadonlySet<string>;
  checkDefault: CheckDefault | undefined;
  cel: CelCompiler | undefined;
}

export interface Hooks {
  checkDefault?: CheckDefault | undefined;
  cel?: CelCompiler | undefined;
}

/** The options of ValidateCustomResourceDefinition (create). */
export function createOptions(hooks: Hooks): ValidationOptions {
  return {
    allowDefaults: true,
    disallowDefaultsReason: '',
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    preexistingRules: new Set(),
    preexistingMessageExpressions: new Set(),
    versionsWithUnchangedSchemas: new Set(),
    suppressPerExpressionCost: false,
    // The CRD is not established yet.
    allowInvalidCABundle: true,
    allowTooManySelectableFields: new Set(),
    checkDefault: hooks.checkDefault,
    cel: hooks.cel,
  };
}

/** The options of ValidateCustomResourceDefinitionUpdate, derived from the old object. */
export function updateOptions(crd: Crd, old: Crd, hooks: Hooks): ValidationOptions {
  const oldSpec = old.spec;
  const expressions = findPreexistingExpressions(oldSpec);
  return {
    ...createOptions(hooks),
    requireRecognizedConversionReviewVersion: oldSpec.conversion === undefined || hasValidConversionReviewVersionOrEmpty(oldSpec.conversion.conversionReviewVersions),
    requireImmutableNames: isConditionTrue(old, 'Established'),
    requireOpenAPISchema: allVersionsSpecifyOpenAPISchema(oldSpec),
    requireValidPropertyType: !specHasInvalidTypes(oldSpec),
    requireStructuralSchema: !specHasNonStructuralSchema(oldSpec),
    requirePrunedDefaults: !specHasUnprunedDefaults(oldSpec),
    requireAtomicSetType: !hasSchemaWith(oldSpec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !hasSchemaWith(oldSpec, hasInvalidMapListKeysMapSet),
    preexistingRules: expressions.rules,
    preexistingMessageExpressions: expressions.messageExpressions,
    versionsWithUnchangedSchemas: findVersionsWithUnchangedSchemas(crd, old),
    allowInvalidCABundle: allowInvalidCABundle(old),
    allowTooManySelectableFields: findTooManySelectableFieldsAllowed(crd, old),
  };
}

/** An invalid CA bundle may stay invalid, and may be set before the CRD is established. */
function allowInvalidCABundle(old: Crd): boolean {
  if (!isConditionTrue(old, 'Established')) return true;
  const cc = old.spec.conversion?.webhookClientConfig;
  if (cc === undefined || cc.caBundle.length === 0) return false;
  return validateCABundle('caBundle', cc.caBundle).length > 0;
}

/** apiextensions.GetSchemaForVersion; undefined result with ok=false is Go's error case. */
function schemaForVersion(crd: Crd, version: string): { ok: boolean; schema: Validation | undefined } {
  const perVersion = crd.spec.versions.some((v) => v.schema !== undefined);
  if (!perVersion) return { ok: true, schema: crd.spec.validation };
  if (crd.spec.validation !== undefined) return { ok: false, schema: undefined };
  const v = crd.spec.versions.find((x) => x.name === version);
  return v ? { ok: true, schema: v.schema } : { ok: false, schema: undefined };
}

function findVersionsWithUnchangedSchemas(crd: Crd, old: Crd): Set<string> {
  const out = new Set<string>();
  for (const v of crd.spec.versions) {
    const a = schemaForVersion(crd, v.name);
    const b = schemaForVersion(old, v.name);
    if (a.ok && b.ok && semanticEqual(a.schema, b.schema)) out.add(v.name);
  }
  return out;
}

function findTooManySelectableFieldsAllowed(crd: Crd, old: Crd): Set<string> {
  const out = new Set<string>();
  if ((old.spec.selectableFields?.length ?? 0) > MAX_SELECTABLE_FIELDS && semanticEqual(crd.spec.selectableFields, old.spec.selectableFields)) out.add('');
  const oldVersions = new Map(old.spec.versions.map((v) => [v.name, v]));
  for (const v of crd.spec.versions) {
    const oldV = oldVersions.get(v.name);
    if (oldV === undefined) continue;
    if ((oldV.selectableFields?.length ?? 0) > MAX_SELECTABLE_FIELDS && semanticEqual(v.selectableFields, oldV.selectableFields)) out.add(v.name);
  }
  return out;
}
