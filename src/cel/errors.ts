// cel-go's wording for compile and runtime errors. The engine has its own codes and texts
// (`no such overload: int == bool`); Kubernetes users see cel-go's
// (`ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'` with the
// source line and a caret), so errors are re-rendered from the failing node and its checked types.
import { MATCHES_FUNCTION } from './library/regex.ts';
import type { SourceNode } from './engine-internals.ts';

/** The parts of the engine's AST nodes this module reads. */
export interface Node extends SourceNode {
  checkedType?: { name: string };
  argTypes?: { name: string }[];
}

interface CelErrorLike {
  code?: string;
  summary?: string;
  message: string;
  node?: Node;
  name?: string;
}

const OPERATOR_FUNCTIONS: Record<string, string> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
  '&&': '_&&_',
  '||': '_||_',
  '!_': '!_',
  '-_': '-_',
  '?:': '_?_:_',
  '[]': '_[_]',
};

/** A type as cel-go prints it: `list(int)`, `map(string, int)`, `null_type`. */
export function celTypeName(name: string | undefined): string {
  if (name === undefined) return 'dyn';
  return name.replace(/\boptional</g, 'optional_type<').replace(/</g, '(').replace(/>/g, ')').replace(/\bnull\b/g, 'null_type');
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && 'op' in v && 'input' in v;

/** Where cel-go points: the operator token of an operation, the `(` of a call, the `.` of a select. */
function errorOffset(node: Node): number {
  const input = node.input;
  const args = node.args as unknown[];
  switch (node.op) {
    case 'call':
    case 'rcall': {
      const from = node.op === 'rcall' && isNode(args[1]) ? args[1].end : node.start;
      const at = input.indexOf('(', from);
      return at >= 0 ? at : node.start;
    }
    case '.':
    case '.?': {
      const at = input.lastIndexOf('.', node.pos);
      return at >= 0 ? at : node.pos;
    }
    case '[]':
    case '[?]': {
      const at = isNode(args[0]) ? input.indexOf('[', args[0].end) : -1;
      return at >= 0 ? at : node.start;
    }
    case '?:': {
      const at = isNode(args[0]) ? input.indexOf('?', args[0].end) : -1;
      return at >= 0 ? at : node.start;
    }
    default: {
      const token = node.op === '!_' ? '!' : node.op === '-_' ? '-' : node.op;
      if (Array.isArray(args) && isNode(args[0]) && isNode(args[1])) {
        const at = input.indexOf(token, args[0].end);
        if (at >= 0 && at < args[1].start) return at;
      }
      return node.pos ?? node.start;
    }
  }
}

/** `ERROR: <input>:L:C: msg` plus the source line and a caret, as cel-go's issues print. */
export function formatIssue(input: string, offset: number, message: string): string {
  const before = input.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = Array.from(input.slice(lineStart, offset)).length;
  const lineEnd = input.indexOf('\n', offset);
  const text = input.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`;
}

const typesOf = (nodes: unknown[]): string => nodes.map((n) => celTypeName(isNode(n) ? n.checkedType?.name : undefined)).join(', ');
const fnName = (name: unknown): string => (name === MATCHES_FUNCTION ? 'matches' : String(name));

/** The cel-go message for a check (or parse) error of the engine. */
function checkMessage(err: CelErrorLike): string {
  const node = err.node;
  const summary = err.summary ?? err.message;
  const args = (node?.args ?? []) as unknown[];
  switch (err.code) {
    case 'no_such_overload':
    case 'invalid_logical_operand':
    case 'invalid_index_type': {
      if (!node) break;
      const operands = node.op === '!_' || node.op === '-_' ? [node.args] : args;
      return `found no matching overload for '${OPERATOR_FUNCTIONS[node.op] ?? node.op}' applied to '(${typesOf(operands)})'`;
    }
    case 'incompatible_ternary_branches':
      if (node) return `found no matching overload for '_?_:_' applied to '(${typesOf(args)})'`;
      break;
    case 'no_matching_overload': {
      if (!node) break;
      const argTypes = (node.argTypes ?? []).map((t) => celTypeName(t.name)).join(', ');
      if (node.op === 'rcall') return `found no matching overload for '${fnName(args[0])}' applied to '${celTypeName(isNode(args[1]) ? args[1].checkedType?.name : undefined)}.(${argTypes})'`;
      return `found no matching overload for '${fnName(args[0])}' applied to '(${argTypes})'`;
    }
    case 'no_such_key': {
      const key = /No such key: (.*)$/.exec(summary)?.[1];
      return `undefined field '${key ?? summary}'`;
    }
    case 'unknown_variable':
      return `undeclared reference to '${/Unknown variable: (.*)$/.exec(summary)?.[1] ?? summary}' (in container '')`;
    case 'invalid_macro_argument':
      return summary.startsWith('has()') ? 'invalid argument to has() macro' : 'argument must be a simple name';
    case 'cannot_index_type':
      return `type '${celTypeName(/Cannot index type '(.*)'$/.exec(summary)?.[1])}' does not support field selection`;
    case 'invalid_condition_type':
      if (node) return `found no matching overload for '_?_:_' applied to '(${celTypeName(node.checkedType?.name)}, ...)'`;
      break;
  }
  if (err.name === 'ParseError') return `Syntax error: ${summary}`;
  return summary;
}

/** A check error as cel-go renders `issues.String()`. */
export function formatCheckError(expression: string, err: unknown): string {
  const e = err as CelErrorLike;
  if (typeof e !== 'object' || e === null) return String(err);
  const node = e.node;
  let offset = node && typeof node.start === 'number' && node.input !== undefined ? errorOffset(node) : 0;
  // Macro argument errors point at the macro call's `(`.
  if (e.code === 'invalid_macro_argument' && node) offset = Math.max(0, expression.lastIndexOf('(', node.start));
  return formatIssue(expression, offset, checkMessage(e));
}

/** The cel-go text of a runtime error (`no such key: x`, `division by zero`). */
export function runtimeErrorMessage(err: unknown): string {
  const e = err as CelErrorLike;
  if (typeof e !== 'object' || e === null) return String(err);
  const summary = e.summary ?? e.message;
  switch (e.code) {
    case 'no_such_key':
      return `no such key: ${/No such key: (.*)$/.exec(summary)?.[1] ?? summary}`;
    case 'division_by_zero':
      return 'division by zero';
    // An unbound name evaluated without a check (interpreter/attributes.go).
    case 'unknown_variable':
      return `no such attribute(s): ${/Unknown variable: (.*)$/.exec(summary)?.[1] ?? summary}`;
    case 'optional_value_missing':
      return 'optional.none() dereference';
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return /unsigned/i.test(summary) ? 'unsigned integer overflow' : 'integer overflow';
    case 'index_out_of_bounds': {
      const m = /index (-?\d+) (?:< 0|>= size (\d+))/.exec(summary);
      return m ? `index '${m[1]}' out of range in list size '${m[2] ?? 0}'` : summary;
    }
    case 'no_such_overload':
    case 'no_matching_overload':
    // A non-bool operand of &&, || or a ternary's condition: cel-go's interpreter says the same.
    case 'invalid_logical_operand':
    case 'invalid_condition_type':
      return 'no such overload';
  }
  return summary;
}
