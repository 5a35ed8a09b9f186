// ValidateStructural: pkg/apiserver/schema/validation.go and complete.go. Rules 1-4 of "Specifying
// a structural schema", each violation its own error, sorted by their text as Go sorts them.
import { re2 } from '../../schema/re2.ts';
import { fieldError, fieldErrorMessage, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { Extensions, Generic, NestedValueValidation, Structural, ValueValidation } from './structural.ts';

type Level = 'root' | 'item' | 'field';

const child = fieldPath.child;
const key = fieldPath.key;
const index = fieldPath.index;

/** ValidateStructural with the options the CRD registry uses (all nested widenings off). */
export function validateStructural(path: string, s: Structural | undefined): FieldError[] {
  const errs = [...validateStructuralInvariants(s, 'root', path), ...validateStructuralCompleteness(s, path)];
  // Go sorts by Error() text; plain code-unit order equals Go's byte order for these ASCII texts.
  const keyed = errs.map((e) => ({ e, k: fieldErrorMessage(e) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.e);
}

function validateStructuralInvariants(s: Structural | undefined, lvl: Level, path: string): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];

  if (s.type === 'array' && s.items === undefined) errs.push(fieldError.required(child(path, 'items'), 'must be specified'));
  errs.push(...validateStructuralInvariants(s.items, 'item', child(path, 'items')));

  for (const [k, v] of s.properties ?? []) errs.push(...validateStructuralInvariants(v, 'field', key(child(path, 'properties'), k)));

  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.structural !== undefined) {
      errs.push(...validateStructuralInvariants(s.additionalProperties.structural, 'field', child(path, 'additionalProperties')));
    }
  }

  errs.push(...validateExtensions(s, path));

  const skipAnyOf = isIntOrStringAnyOfPattern(s.valueValidation);
  const skipFirstAllOfAnyOf = isIntOrStringAllOfPattern(s.valueValidation);
  errs.push(...validateValueValidation(s.valueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, path));

  const checkMetadata = lvl === 'root' || s.xEmbeddedResource;

  if (s.xEmbeddedResource && s.type !== 'object') {
    if (s.type.length === 0) errs.push(fieldError.required(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(fieldError.invalid(child(path, 'type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (s.type.length === 0 && !s.xIntOrString && !s.xPreserveUnknownFields) {
    const detail = { root: 'must not be empty at the root', item: 'must not be empty for specified array items', field: 'must not be empty for specified object fields' }[lvl];
    errs.push(fieldError.required(child(path, 'type'), detail));
  }
  if (s.xEmbeddedResource && s.additionalProperties !== undefined) {
    errs.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }

  if (lvl === 'root' && s.type.length > 0 && s.type !== 'object') {
    errs.push(fieldError.invalid(child(path, 'type'), s.type, 'must be object at the root'));
  }

  const kind = s.properties?.get('kind');
  if (kind !== undefined && checkMetadata && kind.type !== 'string') {
    errs.push(fieldError.invalid(child(key(child(path, 'properties'), 'kind'), 'type'), kind.type, 'must be string'));
  }
  const apiVersion = s.properties?.get('apiVersion');
  if (apiVersion !== undefined && checkMetadata && apiVersion.type !== 'string') {
    errs.push(fieldError.invalid(child(key(child(path, 'properties'), 'apiVersion'), 'type'), apiVersion.type, 'must be string'));
  }

  const metadata = s.properties?.get('metadata');
  if (metadata !== undefined) {
    errs.push(...validateStructuralMetadataInvariants(metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata')));
  }

  if (s.xEmbeddedResource && !s.xPreserveUnknownFields && (s.properties?.size ?? 0) === 0) {
    errs.push(fieldError.required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

function validateStructuralMetadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(fieldError.invalid(child(path, 'type'), s.type, 'must be object'));

  if (lvl === 'root') {
    // Only name and generateName may be restricted: drop those, the type and the default (checked
    // elsewhere), and require everything else to be the zero value.
    const props = s.properties;
    const foundName = props?.has('name') ?? false;
    const foundGenerateName = props?.has('generateName') ?? false;
    let remainingProps = props;
    if (foundName && foundGenerateName && props!.size === 2) remainingProps = undefined;
    else if ((foundName || foundGenerateName) && props!.size === 1) remainingProps = undefined;
    const zero =
      remainingProps === undefined &&
      s.items === undefined &&
      s.additionalProperties === undefined &&
      isZeroGeneric({ ...s, type: '', default: undefined }) &&
      isZeroExtensions(s) &&
      s.xValidations === undefined &&
      (s.valueValidation === undefined || isZeroValueValidation(s.valueValidation));
    if (!zero) {
      errs.push(fieldError.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function isZeroGeneric(g: Generic): boolean {
  return g.description === '' && g.type === '' && g.title === '' && g.default === undefined && !g.nullable && g.externalDocs === undefined && g.example === undefined;
}

function isZeroExtensions(x: Extensions): boolean {
  return !x.xPreserveUnknownFields && !x.xEmbeddedResource && !x.xIntOrString && x.xListMapKeys === undefined && x.xListType === undefined && x.xMapType === undefined;
}

function isZeroValueValidation(v: ValueValidation): boolean {
  return (
    v.format === '' && v.maximum === undefined && !v.exclusiveMaximum && v.minimum === undefined && !v.exclusiveMinimum &&
    v.maxLength === undefined && v.minLength === undefined && v.pattern === '' && v.maxItems === undefined &&
    v.minItems === undefined && !v.uniqueItems && v.multipleOf === undefined && v.enum === undefined &&
    v.maxProperties === undefined && v.minProperties === undefined && v.required === undefined &&
    v.allOf === undefined && v.oneOf === undefined && v.anyOf === undefined && v.not === undefined
  );
}

// reflect.DeepEqual with NestedValueValidation{ForbiddenGenerics: Generic{Type: t}}.
function isBareType(n: NestedValueValidation, t: string): boolean {
  return (
    isZeroValueValidation(n.valueValidation) &&
    n.xValidations === undefined &&
    n.items === undefined &&
    n.properties === undefined &&
    n.additionalProperties === undefined &&
    n.forbiddenGenerics.type === t &&
    isZeroGeneric({ ...n.forbiddenGenerics, type: '' }) &&
    isZeroExtensions(n.forbiddenExtensions)
  );
}

function isIntOrStringAnyOf(anyOf: NestedValueValidation[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && isBareType(anyOf[0]!, 'integer') && isBareType(anyOf[1]!, 'string');
}

function isIntOrStringAnyOfPattern(v: ValueValidation | undefined): boolean {
  return v !== undefined && isIntOrStringAnyOf(v.anyOf);
}

function isIntOrStringAllOfPattern(v: ValueValidation | undefined): boolean {
  return v !== undefined && (v.allOf?.length ?? 0) >= 1 && isIntOrStringAnyOf(v.allOf![0]!.valueValidation.anyOf);
}

function validateExtensions(x: Extensions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (x.xIntOrString && x.xPreserveUnknownFields) {
    errs.push(fieldError.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), x.xPreserveUnknownFields, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (x.xIntOrString && x.xEmbeddedResource) {
    errs.push(fieldError.invalid(child(path, 'x-kubernetes-embedded-resource'), x.xEmbeddedResource, 'must be false if x-kubernetes-int-or-string is true'));
  }
  return errs;
}

function validateValueValidation(v: ValueValidation | undefined, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    (v.anyOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, false, false, lvl, index(child(path, 'anyOf'), i))));
  }
  (v.allOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, skipFirstAllOfAnyOf && i === 0, false, lvl, index(child(path, 'allOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, false, false, lvl, index(child(path, 'oneOf'), i))));
  errs.push(...validateNestedValueValidation(v.not, false, false, lvl, child(path, 'not')));

  if (v.pattern.length > 0) {
    const err = compileError(v.pattern);
    if (err !== undefined) errs.push(fieldError.invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
  return errs;
}

/** Go's regexp.Compile error text (re2js reproduces the RE2 syntax messages). */
export function compileError(pattern: string): string | undefined {
  try {
    re2().compile(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function validateNestedValueValidation(v: NestedValueValidation | undefined, skipAnyOf: boolean, skipAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  errs.push(...validateValueValidation(v.valueValidation, skipAnyOf, skipAllOfAnyOf, lvl, path));
  errs.push(...validateNestedValueValidation(v.items, false, false, lvl, child(path, 'items')));
  for (const [k, f] of v.properties ?? []) errs.push(...validateNestedValueValidation(f, false, false, 'field', key(child(path, 'properties'), k)));

  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  if (g.type.length > 0) errs.push(fieldError.forbidden(child(path, 'type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined) errs.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (g.default !== undefined) errs.push(fieldError.forbidden(child(path, 'default'), 'must be undefined to be structural'));
  if (g.title.length > 0) errs.push(fieldError.forbidden(child(path, 'title'), 'must be empty to be structural'));
  if (g.description.length > 0) errs.push(fieldError.forbidden(child(path, 'description'), 'must be empty to be structural'));
  if (g.nullable) errs.push(fieldError.forbidden(child(path, 'nullable'), 'must be false to be structural'));
  if (x.xPreserveUnknownFields) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (x.xEmbeddedResource) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (x.xIntOrString) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-int-or-string'), 'must be false to be structural'));
  if ((x.xListMapKeys?.length ?? 0) > 0) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (x.xListType !== undefined) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (x.xMapType !== undefined) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-map-type'), 'must be undefined to be structural'));
  if ((v.xValidations?.length ?? 0) > 0) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  if (v.properties?.has('metadata')) errs.push(fieldError.forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

// complete.go: every value validation must have a structural counterpart.
function validateStructuralCompleteness(s: Structural | undefined, path: string): FieldError[] {
  if (s === undefined) return [];
  return validateValueValidationCompleteness(s.valueValidation, s, path, path);
}

function requiredBecause(sPath: string, vPath: string): FieldError {
  return fieldError.required(sPath, `because it is defined in ${vPath}`);
}

function validateValueValidationCompleteness(v: ValueValidation | undefined, s: Structural | undefined, sPath: string, vPath: string): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [requiredBecause(sPath, vPath)];
  const errs: FieldError[] = [];
  errs.push(...validateNestedValueValidationCompleteness(v.not, s, sPath, child(vPath, 'not')));
  (v.allOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, index(child(vPath, 'allOf'), i))));
  (v.anyOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, index(child(vPath, 'anyOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, index(child(vPath, 'oneOf'), i))));
  return errs;
}

function validateNestedValueValidationCompleteness(v: NestedValueValidation | undefined, s: Structural | undefined, sPath: string, vPath: string): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [requiredBecause(sPath, vPath)];
  const errs: FieldError[] = [];
  errs.push(...validateValueValidationCompleteness(v.valueValidation, s, sPath, vPath));
  errs.push(...validateNestedValueValidationCompleteness(v.items, s.items, child(sPath, 'items'), child(vPath, 'items')));
  for (const [k, vFld] of v.properties ?? []) {
    const sFld = s.properties?.get(k);
    // AllowValidationPropertiesWithAdditionalProperties is off for CRDs: a property validated in a
    // junctor must be a declared property.
    if (sFld === undefined) errs.push(requiredBecause(key(child(sPath, 'properties'), k), key(child(vPath, 'properties'), k)));
    else errs.push(...validateNestedValueValidationCompleteness(vFld, sFld, key(child(sPath, 'properties'), k), key(child(vPath, 'properties'), k)));
  }
  return errs;
}
