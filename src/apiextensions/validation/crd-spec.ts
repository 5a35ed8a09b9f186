// validateCustomResourceDefinitionSpec(+Update) and validateCustomResourceDefinitionVersion
// (validation.go), on the internal spec (see internal-types.ts for why paths say spec.validation
// when all versions share one schema).
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { byteLength, isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { validateConversion } from './conversion.ts';
import { validateEnumStrings } from './enum-strings.ts';
import { invalidJsonString, invalidStruct, versionsJson } from './go-struct-json.ts';
import { semanticEqual, type Spec, type Subresources, type Version } from './internal-types.ts';
import { validateNames } from './names.ts';
import type { ValidationOptions } from './options.ts';
import { validateColumn } from './printer-columns.ts';
import { specHasDefaults, specHasKubernetesExtensions } from './schema-has.ts';
import { validateCustomResourceValidation } from './schema-validation.ts';
import { validateSelectableFields } from './selectable-fields.ts';
import { tryNewStructural } from './structural.ts';
import { validateSubresources } from './subresources.ts';

const child = fieldPath.child;
const index = fieldPath.index;

function suppressCostIfUnchanged(opts: ValidationOptions, version: string): ValidationOptions {
  return opts.versionsWithUnchangedSchemas.has(version) ? { ...opts, suppressPerExpressionCost: true } : opts;
}

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const CONTROL = /^\p{Cc}$/u;

function validateDeprecationWarning(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  if (byteLength(warning) > 256) errs.push('must be <= 256 characters long');
  if (warning.length === 0) errs.push('must not be an empty string');
  let offset = 0; // Go ranges over bytes: the index is a byte offset.
  for (const r of warning) {
    if (!PRINTABLE.test(r) && r !== '\uFFFD' && !/[\uD800-\uDFFF]/.test(r)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    if (CONTROL.test(r)) {
      errs.push(`must only contain printable UTF-8 characters; control character found at index ${offset}`);
      break;
    }
    offset += byteLength(r);
  }
  return errs;
}

function validateVersion(version: Version, path: string, statusEnabled: boolean, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const e of validateDeprecationWarning(version.deprecated, version.deprecationWarning)) {
    errs.push(invalidJsonString(child(path, 'deprecationWarning'), version.deprecationWarning, e));
  }
  const vOpts = suppressCostIfUnchanged(opts, version.name);
  errs.push(...validateCustomResourceValidation(version.schema, statusEnabled, vOpts, child(path, 'schema')));
  errs.push(...validateSubresources(version.subresources, child(path, 'subresources')));
  (version.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));

  if ((version.selectableFields?.length ?? 0) > 0) {
    if (version.schema?.openAPIV3Schema === undefined) {
      errs.push(fieldError.invalid(child(path, 'selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    } else {
      const { ss, err } = tryNewStructural(version.schema.openAPIV3Schema);
      if (err !== undefined) errs.push(fieldError.invalid(child(path, 'schema.openAPIV3Schema'), '', err));
      errs.push(...validateSelectableFields(version.selectableFields!, ss, child(path, 'selectableFields'), vOpts.allowTooManySelectableFields.has(version.name)));
    }
  }
  return errs;
}

function subresourcesForVersion(spec: Spec, name: string): Subresources | undefined {
  if (!spec.versions.some((v) => v.subresources !== undefined)) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources;
}

const hasStatus = (s: Subresources | undefined): boolean => s?.status === true;
const hasAnyStatus = (spec: Spec): boolean => hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));

function identicalPerVersion<T>(versions: Version[], get: (v: Version) => T | undefined, isSet: (x: T | undefined) => boolean): boolean {
  if (versions.length === 0) return false;
  const first = get(versions[0]!);
  return versions.every((v) => isSet(get(v)) && semanticEqual(get(v), first));
}

export function validateSpec(spec: Spec, optsIn: ValidationOptions, path: string): FieldError[] {
  let opts = optsIn;
  const errs: FieldError[] = [];

  if (spec.group.length === 0) errs.push(fieldError.required(child(path, 'group'), ''));
  else {
    const e = isDNS1123Subdomain(spec.group);
    if (e.length > 0) errs.push(fieldError.invalid(child(path, 'group'), spec.group, e.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(fieldError.invalid(child(path, 'group'), spec.group, 'should be a domain with at least one dot'));
  }

  errs.push(...validateEnumStrings(child(path, 'scope'), spec.scope, ['Cluster', 'Namespaced'], true));

  // Pruning needs structural schemas.
  if (!spec.preserveUnknownFields) opts = { ...opts, requireStructuralSchema: true };

  if (opts.requireOpenAPISchema) {
    if (spec.validation?.openAPIV3Schema === undefined) {
      spec.versions.forEach((v, i) => {
        if (v.schema?.openAPIV3Schema === undefined) errs.push(fieldError.required(child(index(child(path, 'versions'), i), 'schema', 'openAPIV3Schema'), ''));
      });
    }
  } else if (!spec.preserveUnknownFields) {
    if (spec.validation?.openAPIV3Schema === undefined) {
      spec.versions.forEach((v, i) => {
        if (v.served && v.schema?.openAPIV3Schema === undefined) {
          errs.push(fieldError.required(child(index(child(path, 'versions'), i), 'schema', 'openAPIV3Schema'), 'because otherwise all fields are pruned'));
        }
      });
    }
  }
  if (opts.allowDefaults && specHasDefaults(spec)) {
    opts = { ...opts, requireStructuralSchema: true };
    if (spec.preserveUnknownFields) errs.push(fieldError.invalid(child(path, 'preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  if (specHasKubernetesExtensions(spec)) opts = { ...opts, requireStructuralSchema: true };

  let storageFlagCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  spec.versions.forEach((version, i) => {
    if (version.storage) storageFlagCount++;
    if (seen.has(version.name)) uniqueNames = false;
    else seen.add(version.name);
    const e = isDNS1035Label(version.name);
    if (e.length > 0) errs.push(fieldError.invalid(child(index(child(path, 'versions'), i), 'name'), version.name, e.join(',')));
    const subresources = subresourcesForVersion(spec, version.name);
    errs.push(...validateVersion(version, index(child(path, 'versions'), i), hasStatus(subresources), opts));
  });

  // Top-level and per-version fields are mutually exclusive.
  if (spec.validation !== undefined && spec.versions.some((v) => v.schema !== undefined)) {
    errs.push(fieldError.forbidden(child(path, 'validation'), 'top-level and per-version schemas are mutually exclusive'));
  }
  if (spec.subresources !== undefined && spec.versions.some((v) => v.subresources !== undefined)) {
    errs.push(fieldError.forbidden(child(path, 'subresources'), 'top-level and per-version subresources are mutually exclusive'));
  }
  if ((spec.additionalPrinterColumns?.length ?? 0) > 0 && spec.versions.some((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)) {
    errs.push(fieldError.forbidden(child(path, 'additionalPrinterColumns'), 'top-level and per-version additionalPrinterColumns are mutually exclusive'));
  }

  // Identical per-version values belong at the top level. (A v1 object never trips these: the
  // conversion already moved identical values up.)
  const versionsPath = child(path, 'versions');
  const versionsValue = (): string => versionsJson(spec.versions);
  if (identicalPerVersion(spec.versions, (v) => v.schema, (x) => x !== undefined)) {
    errs.push(invalidStruct(versionsPath, versionsValue(), 'per-version schemas may not all be set to identical values (top-level validation should be used instead)'));
  }
  if (identicalPerVersion(spec.versions, (v) => v.subresources, (x) => x !== undefined)) {
    errs.push(invalidStruct(versionsPath, versionsValue(), 'per-version subresources may not all be set to identical values (top-level subresources should be used instead)'));
  }
  if (identicalPerVersion(spec.versions, (v) => v.additionalPrinterColumns, (x) => (x?.length ?? 0) > 0)) {
    errs.push(invalidStruct(versionsPath, versionsValue(), 'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)'));
  }

  if (!uniqueNames) errs.push(invalidStruct(versionsPath, versionsValue(), 'must contain unique version names'));
  if (storageFlagCount !== 1) errs.push(invalidStruct(versionsPath, versionsValue(), 'must have exactly one version marked as storage version'));
  if (spec.version.length !== 0) {
    const e = isDNS1035Label(spec.version);
    if (e.length > 0) errs.push(fieldError.invalid(child(path, 'version'), spec.version, e.join(',')));
    if (spec.versions.length >= 1 && spec.versions[0]!.name !== spec.version) {
      errs.push(fieldError.invalid(child(path, 'version'), spec.version, 'must match the first version in spec.versions'));
    }
  }

  // Required for spec, not for status.acceptedNames.
  if (spec.names.plural.length === 0) errs.push(fieldError.required(child(path, 'names', 'plural'), ''));
  if (spec.names.singular.length === 0) errs.push(fieldError.required(child(path, 'names', 'singular'), ''));
  if (spec.names.kind.length === 0) errs.push(fieldError.required(child(path, 'names', 'kind'), ''));
  if (spec.names.listKind.length === 0) errs.push(fieldError.required(child(path, 'names', 'listKind'), ''));

  errs.push(...validateNames(spec.names, child(path, 'names')));
  errs.push(...validateCustomResourceValidation(spec.validation, hasAnyStatus(spec), suppressCostIfUnchanged(opts, spec.version), child(path, 'validation')));
  errs.push(...validateSubresources(spec.subresources, child(path, 'subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));

  if ((spec.selectableFields?.length ?? 0) > 0) {
    if (spec.validation === undefined) {
      errs.push(fieldError.invalid(child(path, 'selectableFields'), '', 'may only be set when validations.schema is included'));
    } else {
      const { ss, err } = tryNewStructural(spec.validation.openAPIV3Schema);
      // Go's path here really is spec.schema.openAPIV3Schema.
      if (err !== undefined) errs.push(fieldError.invalid(child(path, 'schema.openAPIV3Schema'), '', err));
      errs.push(...validateSelectableFields(spec.selectableFields!, ss, child(path, 'selectableFields'), opts.allowTooManySelectableFields.has('')));
    }
  }

  if (spec.conversion !== undefined && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(invalidJsonString(child(path, 'conversion', 'strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, opts.allowInvalidCABundle, child(path, 'conversion')));
  return errs;
}

/** ValidateImmutableField: `Invalid value: <new>: field is immutable`. `named` marks a named string type (rendered as JSON). */
function immutable(newValue: string, oldValue: string, path: string, named = false): FieldError[] {
  if (newValue === oldValue) return [];
  return [named ? invalidJsonString(path, newValue, 'field is immutable') : fieldError.invalid(path, newValue, 'field is immutable')];
}

export function validateSpecUpdate(spec: Spec, oldSpec: Spec, opts: ValidationOptions, path: string): FieldError[] {
  const errs = validateSpec(spec, opts, path);
  if (opts.requireImmutableNames) {
    // These determine storage.
    errs.push(...immutable(spec.scope, oldSpec.scope, child(path, 'scope'), true));
    errs.push(...immutable(spec.names.kind, oldSpec.names.kind, child(path, 'names', 'kind')));
  }
  // Part of the resource name, which never changes.
  errs.push(...immutable(spec.group, oldSpec.group, child(path, 'group')));
  errs.push(...immutable(spec.names.plural, oldSpec.names.plural, child(path, 'names', 'plural')));
  return errs;
}
