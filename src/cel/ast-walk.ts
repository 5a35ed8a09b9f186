// One walk over an engine AST for the passes that adjust nodes after parsing or checking: every
// node, the alternates the engine evaluates instead (RE2 `matches`, resolved qualified names) and
// the expansions of macros included, each once.

/** A node of the pinned engine's AST (parser.js ASTNode), as the passes use it. */
export interface WalkedNode {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown } & Record<string, unknown>;
}

/**
 * Calls `visit` on every node reachable from `root` (root included), parents before children, and
 * `visitMacroObject` (if given) on the plain objects between them (a macro's arguments and
 * iteration context) before their contents.
 */
export function forEachNode(root: object, visit: (node: WalkedNode) => void, visitMacroObject?: (obj: object) => void): void {
  const Node = root.constructor;
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (v instanceof Node) {
      const n = v as WalkedNode;
      visit(n);
      if (n.op !== 'value') walk(n.args);
      walk(n.meta.alternate);
      walk(n.meta.macro);
      return;
    }
    if (Object.getPrototypeOf(v) === Object.prototype) {
      visitMacroObject?.(v);
      for (const x of Object.values(v)) walk(x);
    }
  };
  walk(root);
}

const isNode = (v: unknown): boolean => typeof v === 'object' && v !== null && 'op' in v && 'meta' in v;

/**
 * The syntactic operands of a node (call arguments, a receiver, map keys and values), without the
 * alternates and macro expansions forEachNode also visits: for passes over the source as written.
 */
export function childNodes<N extends { op: string; args: unknown }>(n: N): N[] {
  const a = n.args;
  switch (n.op) {
    case 'value':
    case 'id':
      return [];
    case 'call':
      return (a as unknown[])[1] as N[];
    case 'rcall':
      return [(a as unknown[])[1] as N, ...((a as unknown[])[2] as N[])];
    case 'map':
      return (a as N[][]).flat();
    default:
      return (Array.isArray(a) ? a : [a]).filter(isNode) as N[];
  }
}
