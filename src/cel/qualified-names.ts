// Qualified names, resolved as cel-go's checker resolves them: a dotted name that names a declared
// function (`ip.isCanonical(s)`, `format.named(n)`) is a call of that global function, not a method
// call on a variable `ip`; a dotted name that names a declared identifier (`net.IP`, a type) is that
// identifier, not a field selection on `net`. Both take precedence over variables, as in cel-go.
// The engine parses both as receiver calls / selects, so after parsing the nodes get an
// `alternate` (the engine's own hook: the checker and evaluator follow it) before type checking.
import type { Environment } from '@marcbachmann/cel-js';
import { childNodes } from './ast-walk.ts';
import { engineOp } from './engine-internals.ts';

interface Node {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown };
  clone(op: { name: string; check: unknown; evaluate: unknown }, args: unknown): Node;
  setMeta(key: string, value: unknown): Node;
}

const qualifiedFunctions = new Set<string>();
const qualifiedIdentifiers = new Set<string>();

/**
 * Declares a global function with a dotted name (the engine's signature syntax would read the
 * prefix as a receiver type). `params` are CEL type names.
 */
export function registerQualifiedFunction(env: Environment, name: string, params: string[], returnType: string, handler: (...args: never[]) => unknown): void {
  env.registerFunction({ name, params: params.map((type) => ({ type })), returnType, handler } as never);
  qualifiedFunctions.add(name);
}

/** Declares a constant with a dotted name (a type identifier such as `net.IP`). */
export function registerQualifiedConstant(env: Environment, name: string, type: string, value: unknown): void {
  env.registerConstant(name, type, value);
  qualifiedIdentifiers.add(name);
}

/** Declares a variable with a dotted name (`authorizer.requestResource` of admission CEL). */
export function registerQualifiedVariable(env: Environment, name: string, type: string): void {
  env.registerVariable(name, type);
  qualifiedIdentifiers.add(name);
}

// The engine's handlers of identifier and global-call nodes.
const ID_OP = engineOp('a', 'id');
const CALL_OP = engineOp('a()', 'call');

/** `a.b.c` of a chain of selects on an identifier, else undefined. */
function qualifiedName(n: Node): string | undefined {
  if (n.op === 'id') return n.args as string;
  if (n.op !== '.') return undefined;
  const [operand, field] = n.args as [Node, string];
  const prefix = qualifiedName(operand);
  return prefix === undefined ? undefined : `${prefix}.${field}`;
}

/** Points qualified function calls and identifiers of a parsed expression at their declarations. */
export function resolveQualifiedNames(n: Node): void {
  if (n.meta.alternate === undefined && n.meta.macro === undefined) {
    if (n.op === '.' && qualifiedIdentifiers.size > 0) {
      const name = qualifiedName(n);
      if (name !== undefined && qualifiedIdentifiers.has(name)) {
        n.setMeta('alternate', n.clone(ID_OP, name));
        return;
      }
    }
    if (n.op === 'rcall' && qualifiedFunctions.size > 0) {
      const [method, target, params] = n.args as [string, Node, Node[]];
      const prefix = qualifiedName(target);
      if (prefix !== undefined && qualifiedFunctions.has(`${prefix}.${method}`)) {
        n.setMeta('alternate', n.clone(CALL_OP, [`${prefix}.${method}`, params]));
        for (const p of params) resolveQualifiedNames(p);
        return;
      }
    }
  }
  for (const c of childNodes(n)) resolveQualifiedNames(c);
}
