// field.Error renders a non-scalar bad value with encoding/json. The CRD validation hands it
// internal apiextensions structs, which carry no json tags: Go prints every field, under its Go
// name, in declaration order, nil as null. renderValue (shared) sorts object keys, so such values
// are pre-rendered here and carried in the detail with the value omitted; the text is identical.
import type { FieldError } from '../../errors/field-error.ts';
import { invalidStruct } from '../../validation/meta-fields.ts';
import { goJson } from '../../errors/go-format.ts';
import type { Column, Rule, Schema, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, SelectableField, Subresources, Validation, Version } from './internal-types.ts';

/**
 * field.Invalid whose bad value is a *string or a named string type (ResourceScope, ...): Go's type
 * switch only prints plain strings with %q, everything else goes through encoding/json.
 */
export function invalidJsonString(field: string, value: string | undefined, detail: string): FieldError {
  return invalidStruct(field, goJson(value ?? null), detail);
}

/** field.Invalid with a struct-valued bad value (src/validation/meta-fields.ts), for the CRD validation. */
export { invalidStruct };

type Fields = [string, string][];
const struct = (fields: Fields): string => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
const j = (v: unknown): string => goJson(v === undefined ? null : v);
const list = <T>(xs: T[] | undefined, f: (x: T) => string): string => (xs === undefined ? 'null' : `[${xs.map(f).join(',')}]`);
const ptr = <T>(x: T | undefined, f: (x: T) => string): string => (x === undefined ? 'null' : f(x));
// Go marshals map keys sorted.
const map = <T>(m: Map<string, T> | undefined, f: (x: T) => string): string =>
  m === undefined ? 'null' : `{${[...m.keys()].sort().map((k) => `${j(k)}:${f(m.get(k)!)}`).join(',')}}`;

export function schemaJson(s: Schema): string {
  return struct([
    ['ID', j(s.id)],
    ['Schema', j(s.schema)],
    ['Ref', j(s.ref)],
    ['Description', j(s.description)],
    ['Type', j(s.type)],
    ['Nullable', j(s.nullable)],
    ['Format', j(s.format)],
    ['Title', j(s.title)],
    ['Default', j(s.default)],
    ['Maximum', j(s.maximum)],
    ['ExclusiveMaximum', j(s.exclusiveMaximum)],
    ['Minimum', j(s.minimum)],
    ['ExclusiveMinimum', j(s.exclusiveMinimum)],
    ['MaxLength', j(s.maxLength)],
    ['MinLength', j(s.minLength)],
    ['Pattern', j(s.pattern)],
    ['MaxItems', j(s.maxItems)],
    ['MinItems', j(s.minItems)],
    ['UniqueItems', j(s.uniqueItems)],
    ['MultipleOf', j(s.multipleOf)],
    ['Enum', list(s.enum, j)],
    ['MaxProperties', j(s.maxProperties)],
    ['MinProperties', j(s.minProperties)],
    ['Required', list(s.required, j)],
    ['Items', ptr(s.items, schemaOrArrayJson)],
    ['AllOf', list(s.allOf, schemaJson)],
    ['OneOf', list(s.oneOf, schemaJson)],
    ['AnyOf', list(s.anyOf, schemaJson)],
    ['Not', ptr(s.not, schemaJson)],
    ['Properties', map(s.properties, schemaJson)],
    ['AdditionalProperties', ptr(s.additionalProperties, schemaOrBoolJson)],
    ['PatternProperties', map(s.patternProperties, schemaJson)],
    ['Dependencies', map(s.dependencies, schemaOrStringArrayJson)],
    ['AdditionalItems', ptr(s.additionalItems, schemaOrBoolJson)],
    ['Definitions', map(s.definitions, schemaJson)],
    ['ExternalDocs', ptr(s.externalDocs, (d) => struct([['Description', j(d.description)], ['URL', j(d.url)]]))],
    ['Example', j(s.example)],
    ['XPreserveUnknownFields', j(s.xPreserveUnknownFields)],
    ['XEmbeddedResource', j(s.xEmbeddedResource)],
    ['XIntOrString', j(s.xIntOrString)],
    ['XListMapKeys', list(s.xListMapKeys, j)],
    ['XListType', j(s.xListType)],
    ['XMapType', j(s.xMapType)],
    ['XValidations', list(s.xValidations, ruleJson)],
  ]);
}

export function schemaOrArrayJson(s: SchemaOrArray): string {
  return struct([
    ['Schema', ptr(s.schema, schemaJson)],
    ['JSONSchemas', list(s.schemas, schemaJson)],
  ]);
}

function schemaOrBoolJson(s: SchemaOrBool): string {
  return struct([
    ['Allows', j(s.allows)],
    ['Schema', ptr(s.schema, schemaJson)],
  ]);
}

function schemaOrStringArrayJson(s: SchemaOrStringArray): string {
  return struct([
    ['Schema', ptr(s.schema, schemaJson)],
    ['Property', list(s.property, j)],
  ]);
}

export function ruleJson(r: Rule): string {
  return struct([
    ['Rule', j(r.rule)],
    ['Message', j(r.message)],
    ['MessageExpression', j(r.messageExpression)],
    ['Reason', j(r.reason)],
    ['FieldPath', j(r.fieldPath)],
    ['OptionalOldSelf', j(r.optionalOldSelf)],
  ]);
}

function validationJson(v: Validation): string {
  return struct([['OpenAPIV3Schema', ptr(v.openAPIV3Schema, schemaJson)]]);
}

function subresourcesJson(s: Subresources): string {
  return struct([
    ['Status', s.status ? '{}' : 'null'],
    [
      'Scale',
      ptr(s.scale, (sc) =>
        struct([
          ['SpecReplicasPath', j(sc.specReplicasPath)],
          ['StatusReplicasPath', j(sc.statusReplicasPath)],
          ['LabelSelectorPath', j(sc.labelSelectorPath)],
        ]),
      ),
    ],
  ]);
}

function columnJson(c: Column): string {
  return struct([
    ['Name', j(c.name)],
    ['Type', j(c.type)],
    ['Format', j(c.format)],
    ['Description', j(c.description)],
    ['Priority', j(c.priority)],
    ['JSONPath', j(c.jsonPath)],
  ]);
}

function selectableFieldJson(f: SelectableField): string {
  return struct([['JSONPath', j(f.jsonPath)]]);
}

export function versionJson(v: Version): string {
  return struct([
    ['Name', j(v.name)],
    ['Served', j(v.served)],
    ['Storage', j(v.storage)],
    ['Deprecated', j(v.deprecated)],
    ['DeprecationWarning', j(v.deprecationWarning)],
    ['Schema', ptr(v.schema, validationJson)],
    ['Subresources', ptr(v.subresources, subresourcesJson)],
    ['AdditionalPrinterColumns', list(v.additionalPrinterColumns, columnJson)],
    ['SelectableFields', list(v.selectableFields, selectableFieldJson)],
  ]);
}

export function versionsJson(vs: Version[]): string {
  // A v1 object with no versions decodes to a nil slice.
  return vs.length === 0 ? 'null' : list(vs, versionJson);
}
