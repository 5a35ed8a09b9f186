// Qualified names, resolved as cel-go's checker resolves them: a dotted name that names a declared
// function (`ip.isCanonical(s)`, `format.named(n)`) is a call of that global function, not a method
// call on a variable `ip`; a dotted name that names a declared identifier (`net.IP`, a type) is that
// identifier, not a field selection on `net`. Both take precedence over variables, as in cel-go.
// The engine parses both as receiver calls / selects, so after parsing the nodes get an
// `alternate` (the engine's own hook: the checker and evaluator follow it) before type checking.
import { Environment } from '@marcbachmann/cel-js';

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

// The engine's handlers of identifier and global-call nodes, taken from parsed samples.
const probe = new Environment();
const ID_OP = opOf(probe.parse('a') as unknown as { ast: Node }, 'id');
const CALL_OP = opOf(probe.parse('a()') as unknown as { ast: Node }, 'call');

function opOf(parsed: { ast: Node }, name: string): { name: string; check: unknown; evaluate: unknown } {
  const meta = parsed.ast.meta as { check?: unknown; evaluate?: unknown };
  if (parsed.ast.op !== name || typeof meta.check !== 'function') throw new Error(`@marcbachmann/cel-js: no '${name}' node handlers; qualified names cannot be resolved`);
  return { name, check: meta.check, evaluate: meta.evaluate };
}

/** `a.b.c` of a chain of selects on an identifier, else undefined. */
function qualifiedName(n: Node): string | undefined {
  if (n.op === 'id') return n.args as string;
  if (n.op !== '.') return undefined;
  const [operand, field] = n.args as [Node, string];
  const prefix = qualifiedName(operand);
  return prefix === undefined ? undefined : `${prefix}.${field}`;
}

function children(n: Node): Node[] {
  const a = n.args;
  switch (n.op) {
    case 'value':
    case 'id':
      return [];
    case 'call':
      return (a as unknown[])[1] as Node[];
    case 'rcall':
      return [(a as unknown[])[1] as Node, ...((a as unknown[])[2] as Node[])];
    case 'map':
      return (a as Node[][]).flat();
    default:
      return (Array.isArray(a) ? a : [a]).filter((x): x is Node => typeof x === 'object' && x !== null && 'op' in x && 'meta' in x);
  }
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
  for (const c of children(n)) resolveQualifiedNames(c);
}
