// ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3 from
// pkg/apis/apiextensions/validation/validation.go: forbidden keywords, x-kubernetes-* extension
// rules, list/map rules and the static part of x-kubernetes-validations.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import type { CelSchemaSession } from './cel-hook.ts';
import { FieldPathError, validFieldPath } from './field-path.ts';
import { invalidJsonString, invalidStruct, schemaOrArrayJson } from './go-struct-json.ts';
import { rawOf, type Schema } from './internal-types.ts';
import { tryNewStructural } from './structural.ts';

const child = fieldPath.child;
const key = fieldPath.key;
const index = fieldPath.index;

export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const SUPPORTED_VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** specStandardValidatorV3's state, copied on the way down. */
export interface StandardValidator {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  uncorrelatableOldSelfPath: string | undefined;
}

export interface OpenAPISchemaOptions {
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  preexistingRules: ReadonlySet<string>;
  preexistingMessageExpressions: ReadonlySet<string>;
  suppressPerExpressionCost: boolean;
}

interface ErrorList {
  schema: FieldError[];
  cel: FieldError[];
}

const withForbiddenDefaults = (v: StandardValidator, reason: string): StandardValidator => ({ ...v, allowDefaults: false, disallowDefaultsReason: reason });
const withInsideResourceMeta = (v: StandardValidator): StandardValidator => ({ ...v, insideResourceMeta: true });
// The highest uncorrelatable ancestor wins.
const withForbidOldSelf = (v: StandardValidator, path: string): StandardValidator =>
  v.uncorrelatableOldSelfPath !== undefined ? v : { ...v, uncorrelatableOldSelfPath: path };

/** cel.MapIsCorrelatable: granular (the default) and atomic maps correlate. */
function mapIsCorrelatable(mapType: string | undefined): boolean {
  return mapType === undefined || mapType === 'granular' || mapType === 'atomic';
}

/**
 * Walks a schema. `cel` is the CEL session when the whole schema is structural with valid
 * defaults (Go's non-nil CELSchemaContext); junctors, definitions and dependencies get none.
 * Returns schema errors first, then CEL errors, as OpenAPISchemaErrorList.AllErrors does.
 */
export function validateOpenAPISchema(schema: Schema | undefined, path: string, ssv: StandardValidator, isRoot: boolean, opts: OpenAPISchemaOptions, cel: CelSchemaSession | undefined): FieldError[] {
  const out = walk(schema, path, ssv, isRoot, opts, cel);
  return [...out.schema, ...out.cel];
}

function walk(schema: Schema | undefined, path: string, ssv: StandardValidator, isRoot: boolean, opts: OpenAPISchemaOptions, cel: CelSchemaSession | undefined): ErrorList {
  const all: ErrorList = { schema: [], cel: [] };
  if (schema === undefined) return all;
  const append = (l: ErrorList): void => {
    all.schema.push(...l.schema);
    all.cel.push(...l.cel);
  };
  const errs = all.schema;

  errs.push(...standardValidate(ssv, schema, path));

  if (schema.uniqueItems) errs.push(fieldError.forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));

  // properties are for structs, additionalProperties for maps: never both.
  if (schema.additionalProperties !== undefined) {
    if ((schema.properties?.size ?? 0) !== 0) {
      if (!schema.additionalProperties.allows || schema.additionalProperties.schema !== undefined) {
        errs.push(fieldError.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
      }
    }
    // Pruning without a value is ambiguous inside metadata maps, hence no defaults there.
    const sub = ssv.insideResourceMeta ? withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata') : ssv;
    append(walk(schema.additionalProperties.schema, child(path, 'additionalProperties'), sub, false, opts, cel));
  }

  for (const [property, propSchema] of schema.properties ?? []) {
    let sub = ssv;
    if (!mapIsCorrelatable(schema.xMapType)) sub = withForbidOldSelf(sub, path);
    if ((isRoot || schema.xEmbeddedResource) && META_FIELDS.has(property)) {
      sub = withInsideResourceMeta(sub);
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${property}`);
    }
    append(walk(propSchema, key(child(path, 'properties'), property), sub, false, opts, cel));
  }

  append(walk(schema.not, child(path, 'not'), ssv, false, opts, undefined));
  (schema.allOf ?? []).forEach((s, i) => append(walk(s, index(child(path, 'allOf'), i), ssv, false, opts, undefined)));
  (schema.oneOf ?? []).forEach((s, i) => append(walk(s, index(child(path, 'oneOf'), i), ssv, false, opts, undefined)));
  (schema.anyOf ?? []).forEach((s, i) => append(walk(s, index(child(path, 'anyOf'), i), ssv, false, opts, undefined)));
  for (const [name, s] of schema.definitions ?? []) append(walk(s, key(child(path, 'definitions'), name), ssv, false, opts, undefined));

  if (schema.items !== undefined) {
    // Only map lists correlate old and new items for oldSelf; unset list type is atomic.
    const sub = schema.xListType !== 'map' ? withForbidOldSelf(ssv, path) : ssv;
    append(walk(schema.items.schema, child(path, 'items'), sub, false, opts, cel));
    (schema.items.schemas ?? []).forEach((s, i) => append(walk(s, index(child(path, 'items'), i), sub, false, opts, cel)));
  }

  for (const [name, d] of schema.dependencies ?? []) append(walk(d.schema, key(child(path, 'dependencies'), name), ssv, false, opts, undefined));

  if (schema.xPreserveUnknownFields === false) {
    errs.push(fieldError.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }

  if (schema.xMapType !== undefined && schema.type !== 'object') {
    if (schema.type.length === 0) errs.push(fieldError.required(child(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(fieldError.invalid(child(path, 'type'), schema.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (schema.xMapType !== undefined && schema.xMapType !== 'atomic' && schema.xMapType !== 'granular') {
    errs.push(fieldError.notSupported(child(path, 'x-kubernetes-map-type'), schema.xMapType, ['atomic', 'granular']));
  }

  if (schema.xListType !== undefined && schema.type !== 'array') {
    if (schema.type.length === 0) errs.push(fieldError.required(child(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(fieldError.invalid(child(path, 'type'), schema.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && schema.xListType === 'set' && schema.items?.schema !== undefined) {
    const is = schema.items.schema;
    if (is.type === 'array') {
      if (is.xListType !== undefined && is.xListType !== 'atomic') {
        errs.push(invalidJsonString(child(child(path, 'items'), 'x-kubernetes-list-type'), is.xListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    } else if (is.type === 'object') {
      if (is.xMapType === undefined || is.xMapType !== 'atomic') {
        // Go reports the items' x-kubernetes-list-type as the value here (usually null).
        errs.push(invalidJsonString(child(child(path, 'items'), 'x-kubernetes-map-type'), is.xListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    }
  }

  if (schema.xListType !== undefined && schema.xListType !== 'atomic' && schema.xListType !== 'set' && schema.xListType !== 'map') {
    errs.push(fieldError.notSupported(child(path, 'x-kubernetes-list-type'), schema.xListType, ['atomic', 'set', 'map']));
  }

  if ((schema.xListMapKeys?.length ?? 0) > 0) {
    if (schema.xListType === undefined) errs.push(fieldError.required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (schema.xListType !== 'map') errs.push(fieldError.invalid(child(path, 'x-kubernetes-list-type'), schema.xListType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }

  if (schema.xListType === 'map') {
    if ((schema.xListMapKeys?.length ?? 0) === 0) errs.push(fieldError.required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (schema.items === undefined) errs.push(fieldError.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (schema.items !== undefined && schema.items.schema === undefined) {
      errs.push(invalidStruct(child(path, 'items'), schemaOrArrayJson(schema.items), 'must only have a single schema if x-kubernetes-list-type is map'));
    }
    const is = schema.items?.schema;
    if (is !== undefined && is.type !== 'object') {
      errs.push(fieldError.invalid(child(child(path, 'items'), 'type'), is.type, "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (is !== undefined && is.type === 'object') {
      const keys = new Set<string>();
      for (const k of schema.xListMapKeys ?? []) {
        const s = is.properties?.get(k);
        if (s !== undefined) {
          if (s.type === 'array' || s.type === 'object') {
            // Go reports the item's type ("object") as the value here.
            errs.push(fieldError.invalid(child(key(child(child(path, 'items'), 'properties'), k), 'type'), is.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(fieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), schema.xListMapKeys, 'entries must all be names of item properties'));
        }
        if (keys.has(k)) errs.push(fieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), schema.xListMapKeys, 'must not contain duplicate entries'));
        keys.add(k);
      }
    }
  }

  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(schema, path));

  if ((schema.xValidations?.length ?? 0) > 0) {
    const rulesPath = child(path, 'x-kubernetes-validations');
    schema.xValidations!.forEach((rule, i) => {
      const rp = index(rulesPath, i);
      const trimmedRule = rule.rule.trim();
      const trimmedMsg = rule.message.trim();
      const trimmedMsgExpr = rule.messageExpression.trim();
      if (trimmedRule.length === 0) errs.push(fieldError.required(child(rp, 'rule'), 'rule is not specified'));
      else if (rule.message.length > 0 && trimmedMsg.length === 0) errs.push(fieldError.invalid(child(rp, 'message'), rule.message, 'must be non-empty if specified'));
      else if (hasNewlines(trimmedMsg)) errs.push(fieldError.invalid(child(rp, 'message'), rule.message, 'must not contain line breaks'));
      else if (hasNewlines(trimmedRule) && trimmedMsg.length === 0) errs.push(fieldError.required(child(rp, 'message'), 'message must be specified if rule contains line breaks'));
      if (rule.messageExpression.length > 0 && trimmedMsgExpr.length === 0) {
        errs.push(fieldError.required(child(rp, 'messageExpression'), 'messageExpression must be non-empty if specified'));
      }
      if (rule.reason !== undefined && !SUPPORTED_VALIDATION_REASONS.includes(rule.reason)) {
        errs.push(fieldError.notSupported(child(rp, 'reason'), rule.reason, SUPPORTED_VALIDATION_REASONS));
      }
      if (rule.fieldPath.length > 0 && rule.fieldPath.trim().length === 0) errs.push(fieldError.invalid(child(rp, 'fieldPath'), rule.fieldPath, 'must be non-empty if specified'));
      if (hasNewlines(rule.fieldPath)) errs.push(fieldError.invalid(child(rp, 'fieldPath'), rule.fieldPath, 'must not contain line breaks'));
      if (rule.fieldPath.length > 0 && !pathValid(schema, rule.fieldPath)) {
        errs.push(fieldError.invalid(child(rp, 'fieldPath'), rule.fieldPath, 'must be a valid path'));
      }
    });

    // Rules are compiled only when this node and everything below it are free of schema errors:
    // CEL types cannot be built from invalid schemas.
    if (all.schema.length === 0 && cel !== undefined) {
      all.cel.push(
        ...cel.compileNode({
          schema: rawOf(schema) as JSONSchemaProps,
          path,
          uncorrelatablePath: ssv.uncorrelatableOldSelfPath,
          preexistingRules: opts.preexistingRules,
          preexistingMessageExpressions: opts.preexistingMessageExpressions,
          suppressPerExpressionCost: opts.suppressPerExpressionCost,
        }),
      );
    }
  }
  return all;
}

function pathValid(schema: Schema, path: string): boolean {
  const { ss, err } = tryNewStructural(schema);
  if (err !== undefined) return true;
  try {
    validFieldPath(path, ss);
    return true;
  } catch (e) {
    if (e instanceof FieldPathError) return false;
    throw e;
  }
}

function hasNewlines(s: string): boolean {
  return /[\n\r]/.test(s);
}

/** validateMapListKeysMapSet: map/set items and map keys may not be nullable; keys need a default or required. */
export function validateMapListKeysMapSet(schema: Schema, path: string): FieldError[] {
  const is = schema.items?.schema;
  if (is === undefined || schema.xListType === undefined) return [];
  if (schema.xListType !== 'set' && schema.xListType !== 'map') return [];
  const errs: FieldError[] = [];
  if (is.nullable) errs.push(fieldError.forbidden(child(child(path, 'items'), 'nullable'), 'cannot be nullable when x-kubernetes-list-type is ' + schema.xListType));
  if (schema.xListType === 'map') {
    const required = new Set(is.required ?? []);
    for (const k of schema.xListMapKeys ?? []) {
      const prop = is.properties?.get(k);
      // Unknown keys are reported by the main walk.
      if (prop === undefined) continue;
      const propPath = key(child(child(path, 'items'), 'properties'), k);
      if (!required.has(k) && prop.default === undefined) {
        errs.push(fieldError.required(child(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable) errs.push(fieldError.forbidden(child(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

/** specStandardValidatorV3.validate: keywords CRD schemas do not support. */
function standardValidate(v: StandardValidator, schema: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (v.requireValidPropertyType && schema.type.length > 0 && !OPENAPI_V3_TYPES.includes(schema.type)) {
    errs.push(fieldError.notSupported(child(path, 'type'), schema.type, OPENAPI_V3_TYPES));
  }
  if (schema.default !== undefined && !v.allowDefaults) {
    let detail = 'must not be set';
    if (v.disallowDefaultsReason.length > 0) detail += ' ' + v.disallowDefaultsReason;
    errs.push(fieldError.forbidden(child(path, 'default'), detail));
  }
  if (schema.id !== '') errs.push(fieldError.forbidden(child(path, 'id'), 'id is not supported'));
  if (schema.additionalItems !== undefined) errs.push(fieldError.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if ((schema.patternProperties?.size ?? 0) !== 0) errs.push(fieldError.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if ((schema.definitions?.size ?? 0) !== 0) errs.push(fieldError.forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (schema.dependencies !== undefined) errs.push(fieldError.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (schema.ref !== undefined) errs.push(fieldError.forbidden(child(path, '$ref'), '$ref is not supported'));
  if (schema.type === 'null') errs.push(fieldError.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (schema.items !== undefined && (schema.items.schemas?.length ?? 0) !== 0) errs.push(fieldError.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (v.insideResourceMeta && schema.xEmbeddedResource) errs.push(fieldError.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errs;
}
