// Targeted fixes for bugs of the pinned @marcbachmann/cel-js 8.0.0 that cannot be fixed by
// registering functions or replacing overload handlers (overload-overrides.ts): its lexer, and the
// type checker's handling of some nodes. One function per upstream bug, each naming it.
//
// Seams used (each checked, see seamMoved): the Lexer (reached through a macro's `parser` argument;
// kubefake's parsers get a patched Lexer instance of their own through a wrapped Parser#parse), the
// shared `check` method of AST nodes (reached through a parsed node's prototype), and the nodes'
// `meta` / `setMeta` / `handle` / `checkedType`, the node API compile.ts also uses to route `matches`
// to RE2. The fixes act only on kubefake's environments (engine-internals.ts): another
// `new Environment()` in the same process keeps the engine's behaviour. On another engine version a
// moved seam throws "engine seam moved" at the first compile instead of silently dropping a fix.
import { Environment, EvaluationError } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { storedMapKey } from './library/numeric-semantics.ts';
import type { OverloadOverride } from './overload-overrides.ts';
import { forEachNode } from './ast-walk.ts';
import { engineOp, isKubefakeRegistry, markKubefakeRegistry, seamMoved } from './engine-internals.ts';
import { registerRegistryProbe, registryOf } from './overload-overrides.ts';

// ---- lexer ------------------------------------------------------------------------------------

interface Lexer {
  input: string;
  pos: number;
  length: number;
  tokenPos: number;
  tokenType: number;
  tokenValue: unknown;
  reset(input: string): string;
  nextToken(): Lexer;
  _readDigits(input: string, length: number, pos: number): number;
  _readExponent(input: string, length: number, pos: number): number;
  _parseAsDouble(start: number, end: number): Lexer;
  _closeQuotedString(rawStart: number, rawValue: string, prefix: string | undefined, pos: number): Lexer;
}

interface ParserLike {
  lexer?: Lexer;
  registry?: unknown;
  parse(input: string): unknown;
}

/** The engine's lexer (one instance shared by every parser) and parser, reached through a probe macro. */
function engineLexer(): { lexer: Lexer; parser: ParserLike } {
  let parser: ParserLike | undefined;
  const probe = new Environment();
  probe.registerFunction('kubefakeLexerProbe(ast): dyn', ((m: { parser: typeof parser; args: unknown[] }) => {
    parser = m.parser;
    return { callAst: m.args[0] };
  }) as never);
  probe.parse('kubefakeLexerProbe(1)');
  const lexer = parser?.lexer;
  for (const fn of ['reset', 'nextToken', '_readDigits', '_readExponent', '_parseAsDouble', '_closeQuotedString'] as const) {
    if (typeof lexer?.[fn] !== 'function') seamMoved(`Lexer.${fn}`);
  }
  if (typeof parser?.parse !== 'function' || !Object.hasOwn(parser, 'lexer')) seamMoved('Parser#lexer / Parser#parse');
  return { lexer: lexer!, parser: parser! };
}

/**
 * A Lexer of kubefake's own (the engine's is shared by every parser of the process), put into
 * kubefake's parsers when they start a parse: Parser#lexer is a plain field.
 */
function useOwnLexer(parser: ParserLike, ownLexer: Lexer): void {
  const proto = Object.getPrototypeOf(parser) as ParserLike;
  const parse = proto.parse;
  proto.parse = function (this: ParserLike, input: string) {
    if (this.lexer !== ownLexer && isKubefakeRegistry(this.registry)) this.lexer = ownLexer;
    return parse.call(this, input);
  };
}

function tokenTypeOf(lexer: Lexer, source: string): number {
  lexer.reset(source);
  lexer.nextToken();
  return lexer.tokenType;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Upstream bug: `.99` (a double literal without its leading zero, valid CEL) is a syntax error. */
function patchLeadingDotDouble(lexer: Lexer): void {
  const DOT = tokenTypeOf(lexer, '.');
  const NUMBER = tokenTypeOf(lexer, '1.5');
  if (DOT === NUMBER || tokenTypeOf(lexer, '.5') !== DOT) seamMoved('Lexer tokens for `.` and numbers');
  const next = lexer.nextToken;
  lexer.nextToken = function (this: Lexer) {
    next.call(this);
    if (this.tokenType !== DOT || !isDigit(this.input.charCodeAt(this.pos))) return this;
    const pos = this._readExponent(this.input, this.length, this._readDigits(this.input, this.length, this.pos));
    return this._parseAsDouble(this.tokenPos, (this.pos = pos));
  };
}

const BYTE_ESCAPES: Record<string, number> = { '\\': 0x5c, '?': 0x3f, '"': 0x22, "'": 0x27, '`': 0x60, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };
const utf8 = new TextEncoder();

/** A bytes literal's body: characters as UTF-8, escapes (already validated by the engine) as bytes. */
function bytesLiteral(raw: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < raw.length; ) {
    if (raw[i] === '\\') {
      const n = raw[i + 1]!;
      if (n in BYTE_ESCAPES) (out.push(BYTE_ESCAPES[n]!), (i += 2));
      else if (n === 'x' || n === 'X') (out.push(Number.parseInt(raw.slice(i + 2, i + 4), 16)), (i += 4));
      else (out.push(Number.parseInt(raw.slice(i + 1, i + 4), 8)), (i += 4));
      continue;
    }
    const ch = String.fromCodePoint(raw.codePointAt(i)!);
    out.push(...utf8.encode(ch));
    i += ch.length;
  }
  return Uint8Array.from(out);
}

/** Upstream bug: non-ASCII characters of a bytes literal (`b'ÿ'`) become Latin-1 bytes, not UTF-8. */
function patchBytesLiteralEncoding(lexer: Lexer): void {
  const close = lexer._closeQuotedString;
  lexer._closeQuotedString = function (this: Lexer, rawStart, rawValue, prefix, pos) {
    close.call(this, rawStart, rawValue, prefix, pos);
    if ((prefix === 'b' || prefix === 'B') && /[^\x00-\x7f]/.test(rawValue)) this.tokenValue = bytesLiteral(rawValue);
    return this;
  };
}

// ---- type checker / AST -----------------------------------------------------------------------

interface Type {
  kind: string;
  name: string;
  keyType?: Type;
}
interface Checker {
  check(node: Node, ctx: unknown): Type;
  dynType: Type;
  registry: unknown;
}
interface EvaluatorLike {
  run(node: Node, ctx: unknown): unknown;
}
type Check = (chk: Checker, ast: Node, ctx: unknown) => Type;
interface Macro {
  typeCheck(chk: Checker, macro: Macro, ctx: unknown): Type;
  evaluate(ev: unknown, macro: Macro, ctx: unknown): unknown;
}
interface Node {
  op: string;
  args: unknown;
  meta: { check: Check; evaluate: unknown; alternate?: Node; macro?: Macro; engineCheck?: Check };
  checkedType?: Type;
  handle?: (...args: unknown[]) => unknown;
  setMeta(key: string, value: unknown): Node;
}

const MIN_INT = -(2n ** 63n);
const MAX_INT = 2n ** 63n - 1n;
const BINARY = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in']);

/**
 * Upstream bug: an operand typed by a type variable — the elements of `[]` or the keys and values
 * of `{}` inside a macro — matches several overloads, and the checker throws "Operator overload
 * 'int > int: bool' overlaps with 'double > int: bool'" for `[].all(x, x > 0)`. cel-go accepts it
 * (the type variable stays free). After such a failure the operands typed by a type variable are
 * retyped dyn (true when there was one) and the node is checked again.
 */
function typeVariableOperandsAsDyn(chk: Checker, ast: Node): boolean {
  const operands = ast.op === '-_' || ast.op === '!_' ? [ast.args as Node] : (ast.args as Node[]);
  let retyped = false;
  for (const operand of operands) {
    if (operand.checkedType?.kind !== 'param') continue;
    operand.checkedType = chk.dynType;
    retyped = true;
  }
  return retyped;
}

/** Upstream bug: `-(-9223372036854775808)` returns 2^63 instead of an overflow error. */
function checkedNegation(ast: Node, type: Type): void {
  const negate = ast.handle;
  if (typeof negate !== 'function' || (type.name !== 'int' && type.kind !== 'dyn')) return;
  ast.handle = (...args) => {
    const r = negate(...args);
    if (typeof r === 'bigint' && (r > MAX_INT || r < MIN_INT)) throw new EvaluationError({ code: 'numeric_overflow', message: 'integer overflow' });
    return r;
  };
}

/** Upstream bug: a uint index (`[7, 8, 9][dyn(0u)]`) finds no element; cel-go indexes lists with it. */
function uintListIndex(ast: Node): void {
  const access = ast.handle;
  const [left, index] = ast.args as Node[];
  if (typeof access !== 'function' || index?.checkedType?.kind !== 'dyn' || (left?.checkedType?.kind !== 'list' && left?.checkedType?.kind !== 'dyn')) return;
  ast.handle = (l, r, ...rest) => access(l, r instanceof UnsignedInt && (Array.isArray(l) || l instanceof Set) ? r.valueOf() : r, ...rest);
}

/** With typed map keys (below), a numeric key finds its entry whatever its numeric type, as in cel-go. */
function numericMapKeys(ast: Node): void {
  const access = ast.handle;
  const kind = (ast.args as Node[])[0]?.checkedType?.kind;
  if (typeof access !== 'function' || (kind !== 'map' && kind !== 'dyn' && kind !== 'optional')) return;
  ast.handle = (l, r, ...rest) => access(l, l instanceof Map ? storedMapKey(l, r) : r, ...rest);
}

function evaluateMapLiteral(ev: EvaluatorLike, ast: Node, ctx: unknown): unknown {
  return mapLiteralValue((ast.args as [Node, Node][]).map(([k, v]) => [ev.run(k, ctx), ev.run(v, ctx)] as [unknown, unknown]));
}

/**
 * The value of a map literal from its evaluated entries: a plain object (the engine's map literal)
 * when every key is a string, else a Map keeping int, uint and bool keys typed.
 */
export function mapLiteralValue(entries: Array<[unknown, unknown]>): unknown {
  if (entries.every(([k]) => typeof k === 'string')) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of entries) if (k !== '__proto__' && k !== 'constructor' && k !== 'prototype') obj[k as string] = v;
    return obj;
  }
  return new Map(entries);
}

/**
 * Upstream bug: map literals become plain objects, so `{6: 'six'}` has the string key "6" and a
 * macro over its keys sees strings. Literals whose keys are not all strings become a Map (the
 * engine's other map representation), keeping int, uint and bool keys typed; lookups and `in`
 * match numeric keys by value (numericMapKeys, numeric-semantics.ts).
 */
function typedMapLiteralKeys(ast: Node, type: Type): void {
  // Only the engine's own map literal: `{?k: v}` (optional-syntax.ts) builds its value itself.
  if (ast.meta.evaluate !== engineMapEvaluate()) return;
  // dyn: an unchecked expression (uncheckedSemantics); the keys decide when it is evaluated.
  const typedKeys = type.kind === 'dyn' || (type.kind === 'map' && type.keyType?.name !== 'string');
  if ((ast.args as unknown[]).length > 0 && typedKeys) ast.setMeta('evaluate', evaluateMapLiteral);
}

let mapEvaluate: unknown;
/** The engine's evaluate of map literals. */
function engineMapEvaluate(): unknown {
  return (mapEvaluate ??= engineOp('{1: 1}', 'map').evaluate);
}

let nullType: object | undefined;

/** cel-go's `null_type` type value (the engine's is named `null`). */
function celNullType(): object {
  if (nullType === undefined) {
    const Type = (new Environment().evaluate('type(1)') as object).constructor as new (name: string) => object;
    nullType = new Type('null_type');
    if ((nullType as { name?: string }).name !== 'null_type') seamMoved('type values');
  }
  return nullType;
}

/**
 * Upstream bug: `type(null)` and the `null_type` constant are a type named `null`; cel-go's is
 * `null_type`. Both become one `null_type` value (type values compare by identity): the overload
 * of `type(null)` here, the constant in the node fixes (namedNullType).
 */
export const NULL_TYPE_OVERRIDES: readonly OverloadOverride[] = [{ signature: 'type(null): type', handler: () => celNullType() }];

function namedNullType(ast: Node): void {
  if (ast.args !== 'null_type') return;
  const constant = ast.meta.alternate;
  if (constant?.op === 'value') constant.args = celNullType();
}

type NodeCheck = (this: Node, chk: Checker, ast: Node, ctx: unknown) => Type;

const FIXED_NODES = new Set([...BINARY, '-_', '!_', '[]', '[?]', 'map']);

/** The engine's check of one node (`check`), with the fixes of that node around it. */
function fixedCheck(check: NodeCheck, ast: Node, chk: Checker, ctx: unknown): Type {
  let type: Type;
  try {
    type = check.call(ast, chk, ast, ctx);
  } catch (e) {
    if (!(BINARY.has(ast.op) || ast.op === '-_' || ast.op === '!_') || !typeVariableOperandsAsDyn(chk, ast)) throw e;
    type = check.call(ast, chk, ast, ctx);
  }
  if (ast.op === '-_') checkedNegation(ast, type);
  else if (ast.op === '[]') (uintListIndex(ast), numericMapKeys(ast));
  else if (ast.op === '[?]') numericMapKeys(ast);
  else if (ast.op === 'map') typedMapLiteralKeys(ast, type);
  else if (ast.op === 'id') namedNullType(ast);
  return type;
}

/**
 * The node fixes apply to every check: the nodes' shared `check` method (reached through any
 * parsed node's prototype) is wrapped once, so no walk over each expression is needed. Nodes that
 * delegate to a macro or an alternate node are left to that node.
 */
function patchNodeChecks(): void {
  const proto = Object.getPrototypeOf(new Environment().parse('1').ast as object) as { check?: NodeCheck };
  const check = proto.check;
  if (typeof check !== 'function' || !/meta\.alternate/.test(String(check))) seamMoved('ASTNode.prototype.check');
  proto.check = function (this: Node, chk, ast, ctx) {
    const fixed = FIXED_NODES.has(this.op) || (this.op === 'id' && this.args === 'null_type');
    if (!fixed || !isKubefakeRegistry(chk.registry) || this !== ast || this.meta.alternate !== undefined || this.meta.macro !== undefined) return check.call(this, chk, ast, ctx);
    return fixedCheck(check, this, chk, ctx);
  };
}

let patched = false;

/** Installs the lexer and node-check fixes once per process (before the first parse). */
export function patchEngine(): void {
  if (patched) return;
  patched = true;
  const { lexer, parser } = engineLexer();
  const ownLexer = new (lexer.constructor as new () => Lexer)();
  patchLeadingDotDouble(ownLexer);
  patchBytesLiteralEncoding(ownLexer);
  useOwnLexer(parser, ownLexer);
  patchNodeChecks();
  const env = new Environment();
  registerRegistryProbe(env);
  markKubefakeRegistry(registryOf(env));
  const bytes = env.evaluate("b'\u00ff'") as Uint8Array;
  if (env.evaluate('.5') !== 0.5 || bytes.length !== 2 || bytes[0] !== 0xc3) seamMoved('lexer patches have no effect');
  if (env.evaluate('[].all(x, x > 0)') !== true) seamMoved('node check patches have no effect');
}

interface LogicalNode {
  left: Node;
  right: Node;
  evaluate: (ev: EvaluatorLike & { tryEval(node: Node, ctx: unknown): unknown }, ast: LogicalNode, ctx: unknown) => unknown;
}

/**
 * Upstream bug: when neither operand of `&&` decides (no false) and both fail, the engine throws
 * the right operand's error; cel-go's evalAnd keeps the first one (`m.a <= 1 && m.b <= 1` on an
 * empty map is "no such key: a"). Likewise `||` with true. A non-bool operand keeps the engine's
 * own handling (the original evaluation, which reports it).
 */
function keepFirstLogicalError(n: Node): void {
  if (n.op !== '&&' && n.op !== '||') return;
  const node = n as unknown as LogicalNode;
  const decides = n.op === '||';
  const engine = n.meta.evaluate as LogicalNode['evaluate'];
  if (typeof engine !== 'function') seamMoved('AST node meta.evaluate of logical operators');
  node.evaluate = (ev, ast, ctx) => {
    const l = ev.tryEval(ast.left, ctx);
    if (l === decides) return decides;
    if (l === !decides) {
      const r = ev.run(ast.right, ctx);
      return typeof r === 'boolean' ? r : engine(ev, ast, ctx);
    }
    if (!(l instanceof Error)) return engine(ev, ast, ctx);
    if (ev.tryEval(ast.right, ctx) === decides) return decides;
    throw l;
  };
}

/** Logical operators keep their first error, as cel-go's (call once the expression is checked). */
export function celLogicalErrors(root: object): void {
  forEachNode(root, (n) => keepFirstLogicalError(n as unknown as Node));
}

/**
 * disable_check (cel-go without its checker): the engine still type-checks when it evaluates, so
 * `x || true` with an unbound x, `'horses' && false` or `true ? 'cows' : 17` fail instead of
 * evaluating. Lenient nodes type as dyn (dispatch happens at runtime, as in cel-go) and a node
 * whose own check fails raises that error only if it is evaluated.
 */
function lenientCheck(chk: Checker, ast: Node, ctx: unknown): Type {
  try {
    ast.meta.engineCheck!(chk, ast, ctx);
  } catch (e) {
    ast.setMeta('evaluate', () => {
      throw e;
    });
  }
  return chk.dynType;
}

function lenientMacro(macro: Macro): void {
  const typeCheck = macro.typeCheck;
  macro.typeCheck = (chk, m, ctx) => {
    try {
      typeCheck.call(macro, chk, m, ctx);
    } catch (e) {
      macro.evaluate = () => {
        throw e;
      };
    }
    return chk.dynType;
  };
}

/**
 * Makes every node of a freshly parsed expression (macro expansions included) lenient, for
 * expressions evaluated without a check.
 */
export function uncheckedSemantics(root: object): void {
  forEachNode(root, (v) => {
    const n = v as unknown as Node;
    if (typeof n.meta?.check !== 'function' || typeof n.setMeta !== 'function') seamMoved('AST node meta.check / setMeta');
    if (n.meta.engineCheck === undefined) n.setMeta('engineCheck', n.meta.check).setMeta('check', lenientCheck);
    if (n.meta.macro && typeof n.meta.macro.typeCheck === 'function') lenientMacro(n.meta.macro);
  });
}
