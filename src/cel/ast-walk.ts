// One walk over an engine AST for the passes that adjust nodes after parsing or checking: every
// node, the alternates the engine evaluates instead (RE2 `matches`, resolved qualified names) and
// the expansions of macros included, each once.

/** A node of the pinned engine's AST (parser.js ASTNode), as the passes use it. */
export interface WalkedNode {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown } & Record<string, unknown>;
}

/** Calls `visit` on every node reachable from `root` (root included), parents before children. */
export function forEachNode(root: object, visit: (node: WalkedNode) => void): void {
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
    if (Object.getPrototypeOf(v) === Object.prototype) for (const x of Object.values(v)) walk(x);
  };
  walk(root);
}
