// The CelCompiler of CRD validation (apiextensions validation.go: the CEL part of
// ValidateCustomResourceDefinitionOpenAPISchema and cel_validation.go's CELSchemaContext): compiles
// the rules of each schema node, reports Go's errors in Go's order, and totals the estimated cost
// of the whole schema against StaticEstimatedCRDCostLimit.
import type { CelCompiler, CelNodeContext, CelSchemaSession } from '../apiextensions/validation/cel-hook.ts';
import { invalidStruct, ruleJson } from '../apiextensions/validation/go-struct-json.ts';
import { fieldError, fieldPath, type FieldError } from '../errors/field-error.ts';
import type { JSONSchemaProps, ValidationRule } from '../schema/types.ts';
import { compileRules, type CompiledRule } from './compile.ts';
import { escapeName, schemaDeclType, type DeclType } from './decl-type.ts';

/** StaticEstimatedCostLimit: per expression. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** StaticEstimatedCRDCostLimit: all expressions of one schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
const MAX_UINT64 = 18446744073709551615;

/** getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** What the CEL context of one node knows: its DeclType and how often it can occur. */
interface NodeInfo {
  decl: DeclType | undefined;
  /** Product of maxItems/maxProperties above the node; undefined when unbounded. */
  cardinality: number | undefined;
}

/** extractMaxElements: by how much a schema multiplies the occurrences of its children. */
function maxElements(s: JSONSchemaProps): number | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined) return typeof s.maxProperties === 'number' ? Math.max(0, s.maxProperties) : undefined;
      return 1;
    case 'array':
      return typeof s.maxItems === 'number' ? Math.max(0, s.maxItems) : undefined;
    default:
      return 1;
  }
}

/** Walks the schema the way the CRD validator does, keyed by the paths it reports. */
function indexSchema(root: JSONSchemaProps, rootPath: string): Map<string, NodeInfo> {
  const out = new Map<string, NodeInfo>();
  const visit = (s: JSONSchemaProps, path: string, decl: DeclType | undefined, cardinality: number | undefined): void => {
    // A node the parent's type does not expose (unescapable name) is converted on its own.
    const own = decl ?? schemaDeclType(s, s['x-kubernetes-embedded-resource'] === true);
    out.set(path, { decl: own, cardinality });
    const factor = maxElements(s);
    const childCardinality = cardinality === undefined || factor === undefined ? undefined : Math.min(cardinality * factor, MAX_UINT64);
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const celName = escapeName(name);
      const childDecl = own?.kind === 'object' && celName !== undefined ? own.fields.get(celName)?.type : undefined;
      visit(prop, fieldPath.key(fieldPath.child(path, 'properties'), name), childDecl, childCardinality);
    }
    if (s.items !== undefined && !Array.isArray(s.items)) visit(s.items, fieldPath.child(path, 'items'), own?.kind === 'list' ? own.elem : undefined, childCardinality);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, fieldPath.child(path, 'additionalProperties'), own?.kind === 'map' ? own.elem : undefined, childCardinality);
  };
  visit(root, rootPath, schemaDeclType(root, true), 1);
  return out;
}

/** The internal ValidationRule as Go prints it in `Invalid value: {"Rule":...}` (struct field order). */
function invalidRule(path: string, r: ValidationRule, detail: string): FieldError {
  const rule = { rule: r.rule ?? '', message: r.message ?? '', messageExpression: r.messageExpression ?? '', reason: r.reason, fieldPath: r.fieldPath ?? '', optionalOldSelf: r.optionalOldSelf };
  return invalidStruct(path, ruleJson(rule), detail);
}

class Session implements CelSchemaSession {
  private total = 0;
  private mostExpensive: { path: string; cost: number }[] = [];
  private readonly nodes: Map<string, NodeInfo>;
  private readonly schemaPath: string;

  constructor(schemaPath: string, root: JSONSchemaProps) {
    this.schemaPath = schemaPath;
    this.nodes = indexSchema(root, schemaPath);
  }

  private observe(path: string, cost: number): void {
    this.total = Math.min(this.total + cost, MAX_UINT64);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    this.mostExpensive = this.mostExpensive.slice(0, 4);
  }

  compileNode(ctx: CelNodeContext): FieldError[] {
    const rules = (ctx.schema['x-kubernetes-validations'] ?? []) as ValidationRule[];
    if (rules.length === 0) return [];
    const info = this.nodes.get(ctx.path) ?? { decl: schemaDeclType(ctx.schema, false), cardinality: undefined };
    if (info.decl === undefined) {
      return [fieldError.internal(fieldPath.child(ctx.path, 'x-kubernetes-validations'), 'internal error: failed to retrieve type information for x-kubernetes-validations')];
    }
    const errs: FieldError[] = [];
    const compiled = compileRules(rules, info.decl);
    compiled.forEach((cr, i) => errs.push(...this.ruleErrors(ctx, cr, i, info)));
    return errs;
  }

  private ruleErrors(ctx: CelNodeContext, cr: CompiledRule, i: number, info: NodeInfo): FieldError[] {
    const errs: FieldError[] = [];
    const base = fieldPath.index(fieldPath.child(ctx.path, 'x-kubernetes-validations'), i);
    const rulePath = fieldPath.child(base, 'rule');
    const cardinality = info.cardinality ?? cr.maxCardinality;
    const cost = cr.maxCost === 0 ? 0 : Math.min(cr.maxCost * cardinality, MAX_UINT64);
    if (!ctx.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      errs.push(fieldError.forbidden(rulePath, costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    this.observe(rulePath, cost);
    if (cr.error !== undefined) {
      errs.push(cr.error.type === 'Required' ? fieldError.required(rulePath, cr.error.detail) : invalidRule(rulePath, cr.rule, cr.error.detail));
    }
    const messagePath = fieldPath.child(base, 'messageExpression');
    if (cr.messageError !== undefined) {
      errs.push(invalidRule(messagePath, cr.rule, cr.messageError.detail));
    } else if (cr.messageProgram !== undefined) {
      if (!ctx.suppressPerExpressionCost && cr.messageMaxCost > STATIC_ESTIMATED_COST_LIMIT) {
        errs.push(fieldError.forbidden(messagePath, costErrorMessage('estimated messageExpression cost', cr.messageMaxCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      this.observe(messagePath, cr.messageMaxCost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatablePath !== undefined) {
        errs.push(fieldError.invalid(rulePath, cr.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatablePath}`));
      }
    } else if (cr.rule.optionalOldSelf !== undefined) {
      errs.push(fieldError.invalid(fieldPath.child(base, 'optionalOldSelf'), cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
    return errs;
  }

  finish(): FieldError[] {
    if (this.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    return [
      ...this.mostExpensive.map((e) => fieldError.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
      fieldError.forbidden(this.schemaPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', this.total, STATIC_ESTIMATED_CRD_COST_LIMIT)),
    ];
  }
}

/** The compiler CRD validation calls for every schema node with x-kubernetes-validations. */
export const crdCelCompiler: CelCompiler = {
  forSchema: (schemaPath, root) => new Session(schemaPath, root),
};
