// Reads of the schema's object values, short-cut. The engine types an object value by looking its
// constructor up in a Map: for each read of a variable, each field selection (which then also looks
// the field's declared type up in a dictionary) and each item a macro binds to its variable, so on
// every item of every list a rule walks. A rule's object values are instances of the node's own
// classes (values.ts), so after the type check, where the checked type is one of those classes:
// - a `x.field` node's `handle` (set by the check, called with operand, field name, node and
//   evaluator; list-semantics.ts hooks `==` the same way) reads the property straight away when the
//   operand is an instance of the class and the value has the field's type;
// - a `self`/`oldSelf` node's `evaluate` (which the engine otherwise binds on first use) returns
//   the bound value when it is an instance of the class;
// - a macro's iteration context (`iterCtx`, made by the check and reused by every run) binds an
//   item that is an instance of the class without the lookup.
// Anything else (an absent field, a value of another type) goes the engine's way, with its errors.
import { forEachNode } from './ast-walk.ts';

type Handle = (obj: unknown, key: unknown, ast: unknown, ev: unknown) => unknown;
type Evaluate = (ev: unknown, ast: unknown, ctx: Context) => unknown;
type Ctor = abstract new () => object;

interface Context {
  getValue(name: string): unknown;
  getCheckedValue(ev: unknown, ast: unknown): unknown;
}

interface IterationContext {
  iterType?: CheckedType;
  iterValue: unknown;
  setIterValue(v: unknown, ev: unknown): IterationContext;
}

interface CheckedType {
  kind: string;
  name: string;
  matchesValueType(v: unknown, ev: unknown): boolean;
}

interface CheckedNode {
  op: string;
  args: unknown;
  left?: { checkedType?: CheckedType };
  checkedType?: CheckedType;
  handle?: Handle;
  evaluate?: Evaluate;
  meta: { alternate?: unknown; macro?: unknown };
}

const HOOKED = Symbol('kubefake.cel.directAccess');
const hooked = (f: unknown): boolean => (f as { [HOOKED]?: true })[HOOKED] === true;
const mark = <F>(f: F): F => (((f as { [HOOKED]?: true })[HOOKED] = true), f);
const isInstance = (v: unknown, Class: Ctor): boolean => v !== null && v !== undefined && (v as object).constructor === Class;

/** The class of a checked message type, when it is one of this node's. */
function classOf(type: CheckedType | undefined, classes: ReadonlyMap<string, Ctor>): Ctor | undefined {
  return type?.kind === 'message' ? classes.get(type.name) : undefined;
}

function hookSelect(node: CheckedNode, classes: ReadonlyMap<string, Ctor>): void {
  const Class = classOf(node.left?.checkedType, classes);
  const fieldType = node.checkedType;
  const orig = node.handle;
  const key = (node.args as unknown[])[1];
  // Map-based types (with a field named `constructor`, environment.ts) are read by the engine.
  if (Class === undefined || Class.prototype instanceof Map || fieldType === undefined || typeof orig !== 'function' || hooked(orig) || typeof key !== 'string') return;
  node.handle = mark<Handle>((obj, k, ast, ev) => {
    if (isInstance(obj, Class)) {
      const v = (obj as Record<string, unknown>)[k as string];
      if (v !== undefined && fieldType.matchesValueType(v, ev)) return v;
    }
    return orig(obj, k, ast, ev);
  });
}

function hookVariable(node: CheckedNode, classes: ReadonlyMap<string, Ctor>): void {
  const Class = classOf(node.checkedType, classes);
  const name = node.args;
  if (Class === undefined || (name !== 'self' && name !== 'oldSelf') || node.meta.alternate !== undefined || Object.hasOwn(node, 'evaluate')) return;
  node.evaluate = mark<Evaluate>((ev, ast, ctx) => {
    const v = ctx.getValue(name);
    return isInstance(v, Class) ? v : ctx.getCheckedValue(ev, ast);
  });
}

function hookIteration(ctx: IterationContext | undefined, classes: ReadonlyMap<string, Ctor>): void {
  const Class = classOf(ctx?.iterType, classes);
  if (ctx === undefined || Class === undefined || typeof ctx.setIterValue !== 'function' || Object.hasOwn(ctx, 'setIterValue')) return;
  const setIterValue = ctx.setIterValue;
  ctx.setIterValue = mark(function (this: IterationContext, v: unknown, ev: unknown): IterationContext {
    if (!isInstance(v, Class)) return setIterValue.call(this, v, ev);
    this.iterValue = v;
    return this;
  });
}

/**
 * Gives the nodes of a type-checked expression that read values of `classes`' types (by type name,
 * as the node environment registered them) the direct reads. Call once after the check, before the
 * first evaluation.
 */
export function applyDirectAccess(root: object, classes: Iterable<Ctor>): void {
  const byName = new Map<string, Ctor>();
  for (const c of classes) byName.set(c.name, c);
  forEachNode(
    root,
    (v) => {
      const n = v as unknown as CheckedNode;
      if (n.op === '.') hookSelect(n, byName);
      else if (n.op === 'id') hookVariable(n, byName);
    },
    // A macro's arguments (iterable, step, ..., and the iteration context).
    (macro) => hookIteration((macro as { iterCtx?: IterationContext }).iterCtx, byName),
  );
}
