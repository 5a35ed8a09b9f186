// Hooks the type-checked AST so `==`, `!=` and `+` follow x-kubernetes-list-type semantics (see
// list-semantics.ts for the semantics themselves). Apart from list-semantics.ts because it needs
// value-ops.ts's celEqual, and celEqual needs the list semantics.
import { forEachNode } from './ast-walk.ts';
import { semanticAdd, semanticEqual, semanticsOf } from './list-semantics.ts';
import { celEqual, type EqualityEvaluator } from './value-ops.ts';

type Handle = (left: unknown, right: unknown, ast: unknown, ev: unknown) => unknown;
interface CheckedType {
  kind: string;
  valueType?: CheckedType;
}
interface CheckedNode {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown };
  left?: { checkedType?: CheckedType };
  handle?: Handle;
}

/** list<list<…>>, map<string, list<…>> and deeper: values that may hold set or map lists inside. */
function holdsLists(t: CheckedType | undefined): boolean {
  const inner = t?.valueType;
  if (inner === undefined || (t!.kind !== 'list' && t!.kind !== 'map')) return false;
  return inner.kind === 'list' || holdsLists(inner);
}

/** `left == right`, or undefined to leave it to the engine. */
function equalBySemantics(l: unknown, r: unknown, nested: boolean, ast: unknown, ev: unknown): boolean | undefined {
  const sem = semanticsOf(l);
  if (sem !== undefined) return semanticEqual(l as unknown[], sem, r, celEqual);
  // Lists and maps whose elements may be set or map lists (the engine would compare those in
  // order): celEqual compares each element by its own list type.
  if (nested && ((Array.isArray(l) && Array.isArray(r)) || (l instanceof Map && r instanceof Map))) return celEqual(l, r, ev as EqualityEvaluator, ast);
  return undefined;
}

const HOOKED = Symbol('kubefake.cel.listSemanticsHook');

function hook(node: CheckedNode): void {
  const orig = node.handle;
  const leftType = node.left?.checkedType;
  const nested = holdsLists(leftType);
  if (typeof orig !== 'function' || (orig as { [HOOKED]?: true })[HOOKED] || (leftType?.kind !== 'list' && leftType?.kind !== 'dyn' && !nested)) return;
  let handle: Handle;
  switch (node.op) {
    case '==':
      handle = (l, r, a, ev) => equalBySemantics(l, r, nested, a, ev) ?? orig(l, r, a, ev);
      break;
    case '!=':
      handle = (l, r, a, ev) => {
        const eq = equalBySemantics(l, r, nested, a, ev);
        return eq === undefined ? orig(l, r, a, ev) : !eq;
      };
      break;
    case '+':
      handle = (l, r, a, ev) => {
        const sem = semanticsOf(l);
        return (sem && semanticAdd(l as unknown[], sem, r)) ?? orig(l, r, a, ev);
      };
      break;
    default:
      return;
  }
  (handle as { [HOOKED]?: true })[HOOKED] = true;
  node.handle = handle;
}

/**
 * Gives the `==`, `!=` and `+` nodes of a type-checked expression the list-type semantics. Call
 * once after a successful check (the check sets each node's handler).
 */
export function applyListSemantics(root: object): void {
  forEachNode(root, (n) => {
    if (n.op === '==' || n.op === '!=' || n.op === '+') hook(n as unknown as CheckedNode);
  });
}
