// Evaluating a schema's x-kubernetes-validations over a custom resource (apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go): rules are compiled once per schema, then every write
// walks the object with the schema, scoping `self` to each node; transition rules run only when an
// old value correlates; a failing rule that does not use oldSelf on an unchanged subtree is a
// warning, not an error (ratcheting); the whole object shares one runtime cost budget.
import { fieldError, fieldErrorBody, fieldPath, OMIT_VALUE, type FieldError } from '../errors/field-error.ts';
import type { CompiledSchema, SchemaNode } from '../schema/schema-node.ts';
import { Correlation } from '../schema/correlation.ts';
import { isObject } from '../schema/json-value.ts';
import type { ValidationRule } from '../schema/types.ts';
import { toSchema } from '../apiextensions/validation/internal-types.ts';
import { tryNewStructural } from '../apiextensions/validation/structural.ts';
import { FieldPathError, pathString, validFieldPath } from '../apiextensions/validation/field-path.ts';
import { compileRules, type CompiledRule, type Program } from './compile.ts';
import { escapeName, schemaDeclType, type DeclType } from './decl-type.ts';
import { runtimeErrorMessage } from './errors.ts';
import { CostLimitExceeded, metered } from './runtime-cost.ts';

/** celconfig.PerCallLimit: one evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: all rules of one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;
const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface CelValidationResult {
  errors: FieldError[];
  /** Ratcheted rule failures, sent as `Warning` headers. */
  warnings: string[];
}

interface NodeValidator {
  schema: SchemaNode;
  rules: CompiledRule[];
  /** NormalizedRuleFieldPath per rule ('' when unset or invalid). */
  fieldPaths: string[];
  properties: Map<string, NodeValidator> | undefined;
  additionalProperties: NodeValidator | undefined;
  items: NodeValidator | undefined;
}

/** The normalized fieldPath of a rule (`.a['b']` → `a[b]`), '' when it does not resolve. */
function normalizedFieldPath(rule: ValidationRule, schema: SchemaNode): string {
  if (!rule.fieldPath) return '';
  const { ss } = tryNewStructural(toSchema(schema.raw as Record<string, unknown>));
  try {
    return pathString(validFieldPath(rule.fieldPath, ss).elems);
  } catch (e) {
    if (e instanceof FieldPathError) return '';
    throw e;
  }
}

function buildValidator(s: SchemaNode, decl: DeclType | undefined, isResourceRoot: boolean): NodeValidator | undefined {
  const own = decl ?? schemaDeclType(s.raw, isResourceRoot || s.embeddedResource);
  const rules = (s.raw['x-kubernetes-validations'] ?? []) as ValidationRule[];
  let properties: Map<string, NodeValidator> | undefined;
  for (const [name, p] of s.properties ?? []) {
    const celName = escapeName(name);
    const v = buildValidator(p, own?.kind === 'object' && celName ? own.fields.get(celName)?.type : undefined, false);
    if (v) (properties ??= new Map()).set(name, v);
  }
  const ap = typeof s.additionalProperties === 'object' ? buildValidator(s.additionalProperties, own?.kind === 'map' ? own.elem : undefined, false) : undefined;
  const items = s.items ? buildValidator(s.items, own?.kind === 'list' ? own.elem : undefined, false) : undefined;
  if (rules.length === 0 && !properties && !ap && !items) return undefined;
  const compiled = rules.length > 0 && own ? compileRules(rules, own) : [];
  return { schema: s, rules: compiled, fieldPaths: compiled.map((c) => normalizedFieldPath(c.rule, s)), properties, additionalProperties: ap, items };
}

/** ratchetingOptions: the node's correlation, else the nearest correlatable ancestor. */
interface Ratchet {
  current?: Correlation | undefined;
  parent?: Correlation | undefined;
}

const ratchetKey = (r: Ratchet, field: string): Ratchet => {
  if (!r.current) return r;
  // apiVersion and kind of the root are not visible to ratcheting.
  if (!r.parent && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), parent: r.current };
};
const ratchetIndex = (r: Ratchet, i: number): Ratchet => (r.current ? { current: r.current.index(i), parent: r.current } : r);
const shouldRatchet = (r: Ratchet): boolean => (r.current ? r.current.deepEqual() : (r.parent?.deepEqual() ?? false));

interface Walk {
  errors: FieldError[];
  warnings: string[];
  budget: number;
}

const messageOf = (rule: ValidationRule): string => (rule.message ? rule.message.trim() : rule.rule.trim());
const typeName = (s: SchemaNode): string => String(s.raw.type ?? '');

/** Validates every rule of a compiled CRD version schema. Build once per version, then validate per write. */
export class CelValidator {
  private readonly root: NodeValidator | undefined;
  private readonly schema: CompiledSchema;

  constructor(schema: CompiledSchema) {
    this.schema = schema;
    this.root = buildValidator(schema.root, undefined, true);
  }

  /** True when the schema has any rule at all. */
  get hasRules(): boolean {
    return this.root !== undefined;
  }

  validate(obj: unknown, old?: unknown): CelValidationResult {
    const walk: Walk = { errors: [], warnings: [], budget: RUNTIME_CEL_COST_BUDGET };
    if (!this.root) return walk;
    const ratchet: Ratchet = old === undefined ? {} : { current: new Correlation(obj, old, this.schema.root) };
    this.visit(this.root, '', obj, old, ratchet, walk);
    return walk;
  }

  private visit(v: NodeValidator, path: string, obj: unknown, old: unknown, ratchet: Ratchet, walk: Walk): void {
    if (obj === null || obj === undefined || walk.budget < 0) return;
    this.evaluateRules(v, path, obj, old ?? undefined, ratchet, walk);
    if (walk.budget < 0) return;
    if (Array.isArray(obj)) {
      if (!v.items) return;
      const oldItems = v.schema.listType === 'map' && Array.isArray(old) ? old : undefined;
      for (let i = 0; i < obj.length && walk.budget >= 0; i++) {
        const oldItem = oldItems ? mapListItem(v.schema, oldItems, obj[i]) : undefined;
        this.visit(v.items, fieldPath.index(path, i), obj[i], oldItem, ratchetIndex(ratchet, i), walk);
      }
    } else if (isObject(obj)) {
      const correlatable = v.schema.mapType === undefined || v.schema.mapType === 'granular' || v.schema.mapType === 'atomic';
      const oldMap = correlatable && isObject(old) ? old : undefined;
      for (const [k, value] of Object.entries(obj)) {
        const sub = v.properties?.get(k) ?? v.additionalProperties;
        if (!sub || walk.budget < 0) continue;
        const childPath = v.properties?.has(k) ? fieldPath.child(path, k) : fieldPath.key(path, k);
        this.visit(sub, childPath, value, oldMap?.[k], ratchetKey(ratchet, k), walk);
      }
    }
  }

  private evaluateRules(v: NodeValidator, path: string, obj: unknown, old: unknown, ratchet: Ratchet, walk: Walk): void {
    if (v.rules.length === 0) return;
    const here = path === '' ? '<nil>' : path;
    const invalid = (detail: string): FieldError => fieldError.invalid(here, typeName(v.schema), detail);
    if (walk.budget <= 0) {
      walk.errors.push(invalid(OUT_OF_BUDGET));
      walk.budget = -1;
      return;
    }
    const hasOld = old !== undefined && old !== null;
    v.rules.forEach((compiled, i) => {
      if (walk.budget < 0) return;
      const rule = compiled.rule;
      if (compiled.error) {
        walk.errors.push(invalid(`rule compile error: ${compiled.error.detail}`));
        return;
      }
      if (!compiled.program) return;
      const optional = rule.optionalOldSelf === true;
      // Transition rules need a correlated old value, unless oldSelf is optional.
      if (compiled.usesOldSelf && !hasOld && !optional) return;
      const result = run(compiled.program, obj, old, hasOld, walk.budget);
      if (result.exceeded) {
        // Over the per-call limit with budget to spare: the call failed; otherwise the budget ran out.
        const msg = walk.budget >= PER_CALL_LIMIT
          ? `'${new CostLimitExceeded().message}': no further validation rules will be run due to call cost exceeds limit for rule: ${messageOf(rule)}`
          : OUT_OF_BUDGET;
        walk.errors.push(invalid(msg));
        walk.budget = -1;
        return;
      }
      walk.budget -= result.cost;
      if (result.error !== undefined) {
        const text = runtimeErrorMessage(result.error);
        walk.errors.push(invalid(text.startsWith('no such overload')
          ? `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${messageOf(rule)}`
          : `${text} evaluating rule: ${messageOf(rule)}`));
        return;
      }
      if (result.value === true) return;

      const at = v.fieldPaths[i] ? (path === '' ? v.fieldPaths[i]! : joinPath(path, v.fieldPaths[i]!)) : here;
      const add = (e: FieldError): void => {
        if (!compiled.usesOldSelf && shouldRatchet(ratchet)) walk.warnings.push(`${e.field}: ${fieldErrorBody(e)}`);
        else walk.errors.push(e);
      };
      let detail: string | undefined;
      if (compiled.messageProgram) {
        const msg = evaluateMessage(compiled.messageProgram, rule.messageExpression ?? '', obj, old, hasOld, walk.budget);
        if (msg.fatal !== undefined) {
          add(fieldError.invalid(at, typeName(v.schema), msg.fatal));
          walk.budget = -1;
          return;
        }
        walk.budget -= msg.cost;
        detail = msg.message;
      }
      detail ??= rule.message ? rule.message.trim() : `failed rule: ${messageOf(rule)}`;
      const value = typeName(v.schema) === 'object' || typeName(v.schema) === 'array' ? OMIT_VALUE : obj;
      add(errorForReason(at, value, detail, rule.reason));
    });
  }
}

/** NormalizedRuleFieldPath is relative: `a.b` or `[k]`, joined to the node's path. */
function joinPath(base: string, rel: string): string {
  return rel.startsWith('[') ? base + rel : `${base}.${rel}`;
}

function errorForReason(path: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(path, value);
    default:
      return fieldError.invalid(path, value, detail);
  }
}

function run(p: Program, obj: unknown, old: unknown, hasOld: boolean, budget: number) {
  const limit = Math.min(PER_CALL_LIMIT, budget);
  return metered(limit, () => p.run(obj, old, hasOld));
}

/** evalMessageExpression: a message, or (for budget problems) a fatal detail. */
function evaluateMessage(p: Program, source: string, obj: unknown, old: unknown, hasOld: boolean, budget: number): { message?: string; fatal?: string; cost: number } {
  const r = run(p, obj, old, hasOld, budget);
  if (r.exceeded) {
    return budget < PER_CALL_LIMIT
      ? { fatal: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run', cost: r.cost }
      : { fatal: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(source)}`, cost: r.cost };
  }
  // Any other problem falls back to message / "failed rule" (Go logs it).
  if (r.error !== undefined || typeof r.value !== 'string') return { cost: r.cost };
  const trimmed = r.value.trim();
  if (Buffer.byteLength(trimmed) > MAX_MESSAGE_EXPRESSION_BYTES || trimmed.includes('\n') || trimmed.length === 0) return { cost: r.cost };
  return { message: trimmed, cost: r.cost };
}

/** The old item of a map list with the same keys (schema defaults fill missing keys). */
function mapListItem(s: SchemaNode, old: unknown[], item: unknown): unknown {
  if (!isObject(item)) return undefined;
  const keyOf = (e: unknown): string | undefined => {
    if (!isObject(e)) return undefined;
    const parts: unknown[] = [];
    for (const k of s.listMapKeys) {
      if (Object.hasOwn(e, k)) parts.push(e[k]);
      else {
        const prop = s.items?.properties?.get(k);
        if (!prop?.hasDefault) return undefined;
        parts.push(prop.default);
      }
    }
    return JSON.stringify(parts);
  };
  const key = keyOf(item);
  return key === undefined ? undefined : old.find((e) => keyOf(e) === key);
}
