// The seam for x-kubernetes-validations compilation. apiextensions-apiserver compiles every rule of
// a schema node with CEL (cel.Compile) inside ValidateCustomResourceDefinitionOpenAPISchema, only
// when that node and everything below it had no schema errors and the whole schema is structural
// with valid defaults. A later module supplies the compiler; without one, rules are only checked
// statically (rule/message/messageExpression/reason/fieldPath), as Go does before compiling.
import type { FieldError } from '../../errors/field-error.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';

export interface CelNodeContext {
  /** The schema node carrying the rules (v1 JSON). */
  schema: JSONSchemaProps;
  /** Path of the node, e.g. `spec.validation.openAPIV3Schema.properties[spec]`. */
  path: string;
  /**
   * The highest ancestor path under which oldSelf cannot be correlated (non-map lists, maps of an
   * unknown x-kubernetes-map-type), or undefined. Go reports a rule using oldSelf below it as
   * `<path>.x-kubernetes-validations[i].rule: Invalid value: "<rule>": oldSelf cannot be used on
   * the uncorrelatable portion of the schema within <uncorrelatablePath>`.
   */
  uncorrelatablePath: string | undefined;
  /** Rules/messageExpressions already stored in the old object: compiled with the stored-expressions env. */
  preexistingRules: ReadonlySet<string>;
  preexistingMessageExpressions: ReadonlySet<string>;
  /** True when the version's schema is unchanged on update: per-expression cost limits are not enforced. */
  suppressPerExpressionCost: boolean;
}

/**
 * Compiles the rules of one schema node and returns Go's CEL errors, in Go's order per rule i:
 * - `<path>.x-kubernetes-validations[i].rule: Forbidden: estimated rule cost exceeds budget by factor of ...`
 *   (StaticEstimatedCostLimit 10000000, unless suppressPerExpressionCost),
 * - `<path>.x-kubernetes-validations[i].rule: Required value: ...` or `Invalid value: {"Rule":...}: compilation failed: ...`,
 * - `<path>.x-kubernetes-validations[i].messageExpression: Invalid value: ...` or the messageExpression cost Forbidden,
 * - the oldSelf correlation error (see uncorrelatablePath), or
 *   `<path>.x-kubernetes-validations[i].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`.
 * The whole-schema total (StaticEstimatedCRDCostLimit 100000000: Forbidden on the most expensive rules, then
 * `<schema path>.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire
 * OpenAPIv3 schema exceeds budget ...`) is also the compiler's to report, through the session's `finish`.
 */
export interface CelSchemaSession {
  compileNode(ctx: CelNodeContext): FieldError[];
  /** After the walk of this schema: the total-cost errors, if any. */
  finish(): FieldError[];
}

/** One session per openAPIV3Schema, because cost totals are per schema. */
export interface CelCompiler {
  /** `root` is the whole openAPIV3Schema (v1 JSON): node types and cardinalities derive from it. */
  forSchema(schemaPath: string, root: JSONSchemaProps): CelSchemaSession;
}
