// validateCustomResourceDefinitionValidation (validation.go): one openAPIV3Schema, top-level or
// per version. Root restrictions with the status subresource, structural rules, defaults, then the
// keyword walk; NewStructural's own errors only surface when nothing else was found.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { validateDefaults } from './defaults.ts';
import { invalidStruct, schemaJson } from './go-struct-json.ts';
import { rawOf, type Schema, type Validation } from './internal-types.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import { validateOpenAPISchema, type StandardValidator } from './openapi-schema.ts';
import type { ValidationOptions } from './options.ts';
import { tryNewStructural } from './structural.ts';
import { validateStructural } from './structural-validation.ts';

// The internal JSONSchemaProps fields, in declaration order, with Go's zero-value test.
const ROOT_FIELDS: [string, (s: Schema) => boolean][] = [
  ['ID', (s) => s.id !== ''],
  ['Schema', (s) => s.schema !== ''],
  ['Ref', (s) => s.ref !== undefined],
  ['Description', (s) => s.description !== ''],
  ['Type', (s) => s.type !== ''],
  ['Nullable', (s) => s.nullable],
  ['Format', (s) => s.format !== ''],
  ['Title', (s) => s.title !== ''],
  ['Default', (s) => s.default !== undefined],
  ['Maximum', (s) => s.maximum !== undefined],
  ['ExclusiveMaximum', (s) => s.exclusiveMaximum],
  ['Minimum', (s) => s.minimum !== undefined],
  ['ExclusiveMinimum', (s) => s.exclusiveMinimum],
  ['MaxLength', (s) => s.maxLength !== undefined],
  ['MinLength', (s) => s.minLength !== undefined],
  ['Pattern', (s) => s.pattern !== ''],
  ['MaxItems', (s) => s.maxItems !== undefined],
  ['MinItems', (s) => s.minItems !== undefined],
  ['UniqueItems', (s) => s.uniqueItems],
  ['MultipleOf', (s) => s.multipleOf !== undefined],
  ['Enum', (s) => s.enum !== undefined],
  ['MaxProperties', (s) => s.maxProperties !== undefined],
  ['MinProperties', (s) => s.minProperties !== undefined],
  ['Required', (s) => s.required !== undefined],
  ['Items', (s) => s.items !== undefined],
  ['AllOf', (s) => s.allOf !== undefined],
  ['OneOf', (s) => s.oneOf !== undefined],
  ['AnyOf', (s) => s.anyOf !== undefined],
  ['Not', (s) => s.not !== undefined],
  ['Properties', (s) => s.properties !== undefined],
  ['AdditionalProperties', (s) => s.additionalProperties !== undefined],
  ['PatternProperties', (s) => s.patternProperties !== undefined],
  ['Dependencies', (s) => s.dependencies !== undefined],
  ['AdditionalItems', (s) => s.additionalItems !== undefined],
  ['Definitions', (s) => s.definitions !== undefined],
  ['ExternalDocs', (s) => s.externalDocs !== undefined],
  ['Example', (s) => s.example !== undefined],
  ['XPreserveUnknownFields', (s) => s.xPreserveUnknownFields !== undefined],
  ['XEmbeddedResource', (s) => s.xEmbeddedResource],
  ['XIntOrString', (s) => s.xIntOrString],
  ['XListMapKeys', (s) => s.xListMapKeys !== undefined],
  ['XListType', (s) => s.xListType !== undefined],
  ['XMapType', (s) => s.xMapType !== undefined],
  ['XValidations', (s) => s.xValidations !== undefined],
];

// The status is extracted as properties[status], so the root may only hold what survives that.
const ALLOWED_AT_ROOT = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example',
  'XPreserveUnknownFields', 'XValidations',
];

function validateRootWithStatus(schema: Schema, path: string): FieldError[] {
  for (const [name, isSet] of ROOT_FIELDS) {
    if (!isSet(schema)) continue;
    if (name === 'Type') {
      if (schema.type !== 'object') {
        return [fieldError.invalid(fieldPath.child(path, 'openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(name)) {
      return [invalidStruct(fieldPath.child(path, 'openAPIV3Schema'), schemaJson(schema), `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

export function validateCustomResourceValidation(validation: Validation | undefined, statusEnabled: boolean, opts: ValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const schema = validation?.openAPIV3Schema;
  if (validation === undefined || schema === undefined) return errs;
  const schemaPath = fieldPath.child(path, 'openAPIV3Schema');

  if (statusEnabled) errs.push(...validateRootWithStatus(schema, path));
  if (schema.nullable) errs.push(fieldError.forbidden(fieldPath.child(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));

  const ssv: StandardValidator = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: opts.disallowDefaultsReason,
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
    uncorrelatableOldSelfPath: undefined,
  };

  let celSession;
  let structuralInitErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const { ss, err } = tryNewStructural(schema);
    if (err !== undefined) {
      // Overlaps with the keyword walk's errors: only shown when the walk found nothing.
      structuralInitErrs = [fieldError.invalid(schemaPath, '', err)];
    } else {
      const structuralErrs = validateStructural(schemaPath, ss);
      if (structuralErrs.length > 0) errs.push(...structuralErrs);
      else {
        const defaultErrs = validateDefaults(schemaPath, ss!, opts.requirePrunedDefaults, opts.checkDefault);
        if (defaultErrs.length > 0) errs.push(...defaultErrs);
        // CEL rules are compiled only for structural schemas with valid defaults.
        else celSession = opts.cel?.forSchema(schemaPath, rawOf(schema) as JSONSchemaProps);
      }
    }
  }

  errs.push(
    ...validateOpenAPISchema(schema, schemaPath, ssv, true, {
      requireAtomicSetType: opts.requireAtomicSetType,
      requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
      preexistingRules: opts.preexistingRules,
      preexistingMessageExpressions: opts.preexistingMessageExpressions,
      suppressPerExpressionCost: opts.suppressPerExpressionCost,
    }, celSession),
  );

  if (errs.length === 0 && structuralInitErrs.length > 0) errs.push(...structuralInitErrs);

  // TODO(cel): the whole-schema cost total (StaticEstimatedCRDCostLimit) is reported by the session.
  if (celSession !== undefined) errs.push(...celSession.finish());

  // Go then builds a schema validator (NewSchemaValidator) and reports `<path>: Invalid value: "":
  // error building validator: ...` on failure; the conversion cannot fail for decoded JSON.
  return errs;
}
