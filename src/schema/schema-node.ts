// The shape compile.ts turns a CRD version's openAPIV3Schema into, which the pruner, defaulter,
// validator and CEL walk. Kept apart from compile.ts so that the modules compile.ts uses (served
// defaults, embedded objects, pruning) can name these types without importing compile.ts back.
import type { JSONSchemaProps } from './types.ts';

export interface SchemaNode {
  readonly raw: JSONSchemaProps;
  /** `type` as kube-openapi holds it: [] when unset, `['integer','string']` for int-or-string. */
  readonly types: readonly string[];
  readonly nullable: boolean;
  /** The format left after StripUnsupportedFormatsPostProcessor ('' when stripped or unset). */
  readonly format: string;
  /** Set when `format` names a string format the registry validates. */
  readonly formatCheck: ((s: string) => boolean) | undefined;
  /** numberValidator's Type/Format: only set for a single integer/number type. */
  readonly numType: string;
  readonly numFormat: string;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: string;
  /** The compiled pattern, or the compile error text. */
  readonly regex: PatternMatcher | string | undefined;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly enum: readonly unknown[] | undefined;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly required: readonly string[];
  readonly properties: ReadonlyMap<string, SchemaNode> | undefined;
  /** additionalProperties: a schema, `true`/`false`, or undefined when unset. */
  readonly additionalProperties: SchemaNode | boolean | undefined;
  readonly items: SchemaNode | undefined;
  readonly allOf: readonly SchemaNode[];
  readonly anyOf: readonly SchemaNode[];
  readonly oneOf: readonly SchemaNode[];
  readonly not: SchemaNode | undefined;
  readonly hasDefault: boolean;
  readonly default: unknown;
  /** This node or a structural descendant carries a default (lets read-time defaulting skip subtrees). */
  readonly defaultsBelow: boolean;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly listType: string | undefined;
  readonly listMapKeys: readonly string[];
  readonly mapType: string | undefined;
}

/** A compiled CRD version schema; build once per version with compileSchema. */
export interface CompiledSchema {
  readonly root: SchemaNode;
}

/** What the validator needs of a compiled `pattern`. */
export interface PatternMatcher {
  test(s: string): boolean;
}
