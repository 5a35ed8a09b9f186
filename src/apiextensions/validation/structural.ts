// Structural schemas: pkg/apiserver/schema/structural.go and convert.go (NewStructural). The split
// into a structural skeleton and "value validations" under allOf/anyOf/oneOf/not is what the
// structural rules are checked on. Nil-versus-empty is kept where Go's reflect.DeepEqual sees it.
import type { Rule, Schema } from './internal-types.ts';

export interface Generic {
  description: string;
  type: string;
  title: string;
  /** JSON.Object: undefined is nil. */
  default: unknown;
  nullable: boolean;
  externalDocs: { description: string; url: string } | undefined;
  example: unknown;
}

export interface Extensions {
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys: string[] | undefined;
  xListType: string | undefined;
  xMapType: string | undefined;
}

export interface ValueValidation {
  format: string;
  maximum: number | undefined;
  exclusiveMaximum: boolean;
  minimum: number | undefined;
  exclusiveMinimum: boolean;
  maxLength: number | undefined;
  minLength: number | undefined;
  pattern: string;
  maxItems: number | undefined;
  minItems: number | undefined;
  uniqueItems: boolean;
  multipleOf: number | undefined;
  enum: unknown[] | undefined;
  maxProperties: number | undefined;
  minProperties: number | undefined;
  required: string[] | undefined;
  allOf: NestedValueValidation[] | undefined;
  oneOf: NestedValueValidation[] | undefined;
  anyOf: NestedValueValidation[] | undefined;
  not: NestedValueValidation | undefined;
}

export interface NestedValueValidation {
  valueValidation: ValueValidation;
  xValidations: Rule[] | undefined;
  items: NestedValueValidation | undefined;
  properties: Map<string, NestedValueValidation> | undefined;
  additionalProperties: NestedValueValidation | undefined;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

export interface Structural extends Generic, Extensions {
  items: Structural | undefined;
  properties: Map<string, Structural> | undefined;
  additionalProperties: { structural: Structural | undefined; bool: boolean } | undefined;
  xValidations: Rule[] | undefined;
  valueValidation: ValueValidation | undefined;
  /** The schema node this was built from, for hooks that want the original (e.g. default checks). */
  source: Schema | undefined;
}

/** The Go error NewStructural returns, as its message. */
export class StructuralError extends Error {}

/** NewStructural: throws StructuralError with Go's message where Go returns an error. */
export function newStructural(s: Schema | undefined): Structural | undefined {
  if (s === undefined) return undefined;
  validateUnsupportedFields(s);
  const vv = newValueValidation(s);
  const g = newGenerics(s);
  const x = newExtensions(s);
  const ss: Structural = {
    ...g,
    ...x,
    valueValidation: vv,
    xValidations: s.xValidations,
    items: undefined,
    properties: undefined,
    additionalProperties: undefined,
    source: s,
  };
  if (s.items !== undefined) {
    if ((s.items.schemas?.length ?? 0) > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    ss.items = newStructural(s.items.schema);
  }
  if (s.properties !== undefined && s.properties.size > 0) {
    ss.properties = new Map();
    for (const [k, x] of s.properties) ss.properties.set(k, newStructural(x)!);
  }
  if (s.additionalProperties !== undefined) {
    ss.additionalProperties = s.additionalProperties.schema !== undefined
      ? { structural: newStructural(s.additionalProperties.schema), bool: true }
      : { structural: undefined, bool: s.additionalProperties.allows };
  }
  return ss;
}

function newGenerics(s: Schema): Generic {
  return {
    type: s.type,
    description: s.description,
    title: s.title,
    nullable: s.nullable,
    default: s.default,
    externalDocs: s.externalDocs ? { ...s.externalDocs } : undefined,
    example: s.example,
  };
}

function newValueValidation(s: Schema): ValueValidation {
  const not = s.not === undefined ? undefined : newNestedValueValidation(s.not);
  // Go appends into nil slices, so an empty enum/allOf/anyOf/oneOf becomes nil here.
  const nonEmpty = <T>(xs: T[] | undefined): T[] | undefined => (xs && xs.length > 0 ? xs : undefined);
  return {
    format: s.format,
    maximum: s.maximum,
    exclusiveMaximum: s.exclusiveMaximum,
    minimum: s.minimum,
    exclusiveMinimum: s.exclusiveMinimum,
    maxLength: s.maxLength,
    minLength: s.minLength,
    pattern: s.pattern,
    maxItems: s.maxItems,
    minItems: s.minItems,
    uniqueItems: s.uniqueItems,
    multipleOf: s.multipleOf,
    maxProperties: s.maxProperties,
    minProperties: s.minProperties,
    required: s.required,
    not,
    enum: nonEmpty(s.enum),
    allOf: nonEmpty(s.allOf?.map(newNestedValueValidation)),
    anyOf: nonEmpty(s.anyOf?.map(newNestedValueValidation)),
    oneOf: nonEmpty(s.oneOf?.map(newNestedValueValidation)),
  };
}

function newNestedValueValidation(s: Schema): NestedValueValidation {
  validateUnsupportedFields(s);
  const v: NestedValueValidation = {
    valueValidation: newValueValidation(s),
    forbiddenGenerics: newGenerics(s),
    forbiddenExtensions: newExtensions(s),
    xValidations: s.xValidations,
    items: undefined,
    properties: undefined,
    additionalProperties: undefined,
  };
  if (s.items !== undefined) {
    if ((s.items.schemas?.length ?? 0) > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    v.items = s.items.schema === undefined ? undefined : newNestedValueValidation(s.items.schema);
  }
  // Unlike NewStructural, a non-nil empty properties map stays non-nil here.
  if (s.properties !== undefined) {
    v.properties = new Map();
    for (const [k, x] of s.properties) v.properties.set(k, newNestedValueValidation(x));
  }
  if (s.additionalProperties !== undefined) {
    if (s.additionalProperties.schema !== undefined) v.additionalProperties = newNestedValueValidation(s.additionalProperties.schema);
    else if (s.additionalProperties.allows) v.additionalProperties = emptyNestedValueValidation();
  }
  return v;
}

function newExtensions(s: Schema): Extensions {
  if (s.xPreserveUnknownFields === false) {
    throw new StructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  }
  return {
    xPreserveUnknownFields: s.xPreserveUnknownFields === true,
    xEmbeddedResource: s.xEmbeddedResource,
    xIntOrString: s.xIntOrString,
    xListMapKeys: s.xListMapKeys,
    xListType: s.xListType,
    xMapType: s.xMapType,
  };
}

function validateUnsupportedFields(s: Schema): void {
  if (s.id.length > 0) throw new StructuralError("OpenAPIV3Schema 'id' is not supported");
  if (s.schema.length > 0) throw new StructuralError("OpenAPIV3Schema 'schema' is not supported");
  if (s.ref !== undefined && s.ref.length > 0) throw new StructuralError("OpenAPIV3Schema '$ref' is not supported");
  if ((s.patternProperties?.size ?? 0) > 0) throw new StructuralError("OpenAPIV3Schema 'patternProperties' is not supported");
  if ((s.dependencies?.size ?? 0) > 0) throw new StructuralError("OpenAPIV3Schema 'dependencies' is not supported");
  if (s.additionalItems !== undefined) throw new StructuralError("OpenAPIV3Schema 'additionalItems' is not supported");
  if ((s.definitions?.size ?? 0) > 0) throw new StructuralError("OpenAPIV3Schema 'definitions' is not supported");
}

export function emptyValueValidation(): ValueValidation {
  return {
    format: '', maximum: undefined, exclusiveMaximum: false, minimum: undefined, exclusiveMinimum: false,
    maxLength: undefined, minLength: undefined, pattern: '', maxItems: undefined, minItems: undefined,
    uniqueItems: false, multipleOf: undefined, enum: undefined, maxProperties: undefined, minProperties: undefined,
    required: undefined, allOf: undefined, oneOf: undefined, anyOf: undefined, not: undefined,
  };
}

function emptyNestedValueValidation(): NestedValueValidation {
  return {
    valueValidation: emptyValueValidation(),
    xValidations: undefined,
    items: undefined,
    properties: undefined,
    additionalProperties: undefined,
    forbiddenGenerics: { description: '', type: '', title: '', default: undefined, nullable: false, externalDocs: undefined, example: undefined },
    forbiddenExtensions: { xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false, xListMapKeys: undefined, xListType: undefined, xMapType: undefined },
  };
}

/** NewStructural as a value-or-error, for the call sites that branch on the error. */
export function tryNewStructural(s: Schema | undefined): { ss: Structural | undefined; err: string | undefined } {
  try {
    return { ss: newStructural(s), err: undefined };
  } catch (e) {
    if (e instanceof StructuralError) return { ss: undefined, err: e.message };
    throw e;
  }
}
