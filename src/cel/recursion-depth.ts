// cel-go's parser refuses expressions nested deeper than its recursion limit (parser/parser.go,
// maxRecursionDepth, 250 in Kubernetes as by default): the visitor counts one level per ternary,
// relation, arithmetic operator, field selection, member call and index, and answers
// `max recursion depth exceeded` (at no location). It folds runs of `!` and `-` and balances
// `&&`/`||` chains, so those add no depth there. The engine counts only parentheses, lists and
// postfix chains, and nests every operator node, so a 5,000-term sum would overflow the stack of
// the recursive passes after parsing. This walk is iterative and runs before any of them.
import type { WalkedNode } from './ast-walk.ts';

/** parser.go's default maxRecursionDepth, which the apiserver's CEL environments keep. */
const MAX_RECURSION_DEPTH = 250;

/** cel-go's error for an expression over the visitor's limit (reported at -1:0, no snippet). */
export const RECURSION_ERROR = 'ERROR: <input>:-1:0: max recursion depth exceeded';

/** Operators one level deep in cel-go's visitor (VisitExpr, VisitRelation, VisitCalc, VisitSelect, VisitMemberCall, VisitIndex). */
const COUNTED = new Set(['?:', '==', '!=', '<', '<=', '>', '>=', 'in', '+', '-', '*', '/', '%', '.', '.?', 'rcall', '[]', '[?]']);

/** True when the parsed expression nests deeper than cel-go's parser allows. */
export function exceedsRecursionDepth(root: object): boolean {
  const Node = root.constructor;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth]);
      continue;
    }
    if (!(v instanceof Node)) continue;
    const n = v as WalkedNode;
    if (n.op === 'value') continue;
    const level = COUNTED.has(n.op) ? depth + 1 : depth;
    if (level > MAX_RECURSION_DEPTH) return true;
    stack.push([n.args, level]);
  }
  return false;
}

/** A stack overflow in a recursive pass over an expression cel-go accepts (a run of 5,000 `!`). */
export function isStackOverflow(e: unknown): boolean {
  if (e instanceof RangeError) return /call stack/i.test(e.message);
  // The engine's parser and checker catch a RangeError and report it as an error of their own.
  const message = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof message === 'string' && /Maximum call stack size exceeded/.test(message);
}

/**
 * The engine's own depth limit (`Exceeded maxDepth`) in cel-go's words: a field selection or index
 * chain is the visitor's `max recursion depth exceeded`; nested parentheses, lists and ternaries
 * stop at the ANTLR listener first (`expression recursion limit exceeded: 250`). Undefined for
 * any other error.
 */
export function engineDepthError(expression: string, e: unknown): string | undefined {
  const err = e as { code?: string; message?: string; node?: { pos?: number } };
  if (err?.code !== 'limit_exceeded' || !/maxDepth/.test(err.message ?? '')) return undefined;
  const pos = err.node?.pos ?? 0;
  const before = expression.slice(0, pos).trimEnd().at(-1) ?? '';
  const postfix = expression[pos] === '.' || (expression[pos] === '[' && /[\w\])'"]/.test(before));
  return postfix ? RECURSION_ERROR : `ERROR: <input>:-1:0: expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}`;
}

/**
 * Runs a pass over a checked expression: a stack overflow in it (where the stack let parsing and
 * checking through but not this pass) is the recursion error, as parsing's own overflow is.
 */
export function recursionErrorOnOverflow<T>(pass: () => T): { value: T } | { error: string } {
  try {
    return { value: pass() };
  } catch (e) {
    if (isStackOverflow(e)) return { error: RECURSION_ERROR };
    throw e;
  }
}
