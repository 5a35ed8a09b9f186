// The parts of cel-go's optional syntax that need the engine's parser and checker, as targeted
// patches of @marcbachmann/cel-js 8.0.0 (pinned; on another version installing them throws). Each
// patched method acts only for kubefake's environments (engine-internals.ts) and otherwise calls
// the engine's own:
//   - `[?a, b]` optional list elements and `{?k: v}` optional map entries (the engine's parser
//     only knows `.?` and `[?]`): Parser.prototype.parseList / parseMap, which mark the optional
//     positions on an ordinary `list`/`map` node with check/evaluate functions of their own;
//   - has() over any select, as cel-go allows: `has({}.?x.y)`, `has(optional.of(m).c)`,
//     `has({'a': 1}.a)` (the engine's has() wants an identifier at the root of the chain and does
//     not see through optionals), and `undefined field` for an unknown field of a schema object:
//     Registry.prototype.findMacro answers our has() macro;
//   - selections on a free type parameter (`optional.none().?x`, `{}.?a.b`) checked as on dyn, as
//     cel-go's checker does, and `.?unknown` on a schema object an `undefined field` error instead
//     of dyn: TypeChecker.prototype.checkAccessOnType.
// The engine exports none of these classes; a probe macro in a throwaway environment gets their
// instances (its handler sees the parser, its typeCheck the checker), as runtime-cost.ts does.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Environment, EvaluationError, Optional, ParseError } from '@marcbachmann/cel-js';
import { celTypeName } from './errors.ts';
import { engineOp, isKubefakeRegistry, PATCHED_ENGINE_VERSION, seamMoved, type IterationScope, type SourceNode } from './engine-internals.ts';
import { mapLiteralValue } from './engine-patches.ts';

interface Type {
  kind: string;
  name: string;
  valueType?: Type;
  isEmpty(): boolean;
  unify(registry: unknown, other: Type): Type | null;
}
interface AstNode extends SourceNode {
  checkedType?: Type;
  handle?: unknown;
  setMeta(key: string, value: unknown): AstNode;
}
type Ctx = IterationScope;
interface Checker {
  registry: { getListType(t: Type): Type; getMapType(k: Type, v: Type): Type; getType(name: string): Type };
  check(n: AstNode, ctx: Ctx): Type;
  dynType: Type;
  boolType: Type;
  opts: { homogeneousAggregateLiterals?: boolean };
  objectTypes: Map<string, { fields?: Record<string, Type> }>;
  objectTypesByConstructor: Map<unknown, { type: Type }>;
  createError(code: string, msg: string, node: AstNode): Error;
  checkAccessOnType(ast: AstNode, ctx: Ctx, leftType: Type, allowMissingField?: boolean): Type;
}
interface Evaluator {
  run(n: AstNode, ctx: unknown): unknown;
  debugType(v: unknown): { kind: string; field(obj: unknown, key: unknown, ast: AstNode, ev: Evaluator): unknown };
  objectTypesByConstructor: Map<unknown, { type: Type }>;
}
interface Parser {
  type: number;
  pos: number;
  input: string;
  lexer: { pos: number; reset(input: string): string; nextToken(): { tokenType: number } };
  limits: { maxListElements: number; maxMapEntries: number };
  astNodesRemaining: number;
  registry: { enableOptionalTypes: boolean };
  parseList(): AstNode;
  parseMap(): AstNode;
  consume(type: number): number;
  match(type: number): boolean;
  parseExpression(): AstNode;
}
interface Op {
  name: string;
  check(chk: Checker, ast: AstNode, ctx: Ctx): Type;
  evaluate(ev: Evaluator, ast: AstNode, ctx: unknown): unknown;
}
type AstNodeCtor = new (input: string, pos: number, start: number, end: number, op: Op, args: unknown) => AstNode;

/** Positions of a list literal's `?` elements, or a map literal's `?` entries. */
const optionalPositions = new WeakMap<AstNode, ReadonlySet<number>>();

function engineVersion(): string | undefined {
  try {
    const main = createRequire(import.meta.url).resolve('@marcbachmann/cel-js');
    return (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

interface Probe {
  parser: Parser;
  checker: Checker;
  AstNode: AstNodeCtor;
}

/** The engine's parser, checker and AST node class, from a macro that sees them. */
function probe(): Probe {
  const seen: Partial<Probe> = {};
  const env = new Environment({ enableOptionalTypes: true }).registerFunction('kubefakeSyntaxProbe(ast): bool', ((opts: { ast: AstNode; parser: Parser }) => {
    seen.parser = opts.parser;
    seen.AstNode = opts.ast.constructor as AstNodeCtor;
    return {
      async: false,
      typeCheck(chk: Checker) {
        seen.checker = chk;
        return chk.boolType;
      },
      evaluate: () => true,
    };
  }) as never);
  env.check('kubefakeSyntaxProbe(1)');
  if (!seen.parser || !seen.checker || !seen.AstNode) throw new Error('@marcbachmann/cel-js: the optional-syntax probe saw no parser or checker');
  return seen as Probe;
}

/** Token numbers of the engine's lexer, read by lexing them (they are not exported). */
function tokens(parser: Parser): Record<'LBRACKET' | 'RBRACKET' | 'LBRACE' | 'RBRACE' | 'COMMA' | 'COLON' | 'QUESTION', number> {
  const lexer = parser.lexer;
  lexer.reset('[ ] { } , : ?');
  const [LBRACKET, RBRACKET, LBRACE, RBRACE, COMMA, COLON, QUESTION] = Array.from({ length: 7 }, () => lexer.nextToken().tokenType) as number[];
  lexer.reset('');
  return { LBRACKET: LBRACKET!, RBRACKET: RBRACKET!, LBRACE: LBRACE!, RBRACE: RBRACE!, COMMA: COMMA!, COLON: COLON!, QUESTION: QUESTION! };
}

const celName = (t: Type): string => celTypeName(t.name);

/** The value type inside an optional element or entry, as cel-go's checker unwraps it. */
function unwrapOptional(chk: Checker, t: Type, node: AstNode): Type {
  if (t.kind === 'optional') return t.valueType!;
  if (t.kind === 'dyn') return t;
  throw chk.createError('type_mismatch', `expected type '${celTypeName(`optional<${t.name}>`)}' but found '${celName(t)}'`, node);
}

/** Joins element types as the engine's list/map check does (homogeneous or unified to dyn). */
function join2(chk: Checker, expected: Type | undefined, t: Type, node: AstNode, code: string, prefix: string): Type {
  if (expected === undefined) return t;
  if (!chk.opts.homogeneousAggregateLiterals) return expected.unify(chk.registry, t) ?? chk.dynType;
  // A free type parameter (the value type of optional.none()) joins with anything.
  if (t === expected || expected.isEmpty() || expected.kind === 'param') return t;
  if (t.isEmpty() || t.kind === 'param') return expected;
  throw chk.createError(code, `${prefix} expected type '${celName(expected)}' but found '${celName(t)}'`, node);
}

// cel-go's texts (interpreter/interpretable.go) for a dyn value that turns out not to be optional.
function notOptionalElement(v: unknown): never {
  throw new EvaluationError(`cannot initialize optional list element from non-optional value ${String(v)}`);
}
function notOptionalEntry(key: unknown, v: unknown): never {
  throw new EvaluationError(`cannot initialize optional entry '${String(key)}' from non-optional value ${String(v)}`);
}

/** A list literal with `?` elements: none are left out, values unwrapped. */
const OPTIONAL_LIST: Op = {
  name: 'list',
  check(chk, ast, ctx) {
    const optional = optionalPositions.get(ast)!;
    let elem: Type | undefined;
    (ast.args as AstNode[]).forEach((e, i) => {
      let t = chk.check(e, ctx);
      if (optional.has(i)) t = unwrapOptional(chk, t, e);
      elem = join2(chk, elem, t, e, 'heterogeneous_list_element', 'List elements must have the same type,');
    });
    return chk.registry.getListType(elem!);
  },
  evaluate(ev, ast, ctx) {
    const optional = optionalPositions.get(ast)!;
    const out: unknown[] = [];
    (ast.args as AstNode[]).forEach((e, i) => {
      const v = ev.run(e, ctx);
      if (!optional.has(i)) out.push(v);
      else if (!(v instanceof Optional)) notOptionalElement(v);
      else if (v.hasValue()) out.push(v.value());
    });
    return out;
  },
};

/** A map literal with `?` entries: entries with optional.none() are left out, values unwrapped. */
const OPTIONAL_MAP: Op = {
  name: 'map',
  check(chk, ast, ctx) {
    const optional = optionalPositions.get(ast)!;
    let key: Type | undefined;
    let value: Type | undefined;
    (ast.args as AstNode[][]).forEach(([k, v], i) => {
      key = join2(chk, key, chk.check(k!, ctx), k!, 'heterogeneous_map_key', 'Map key uses wrong type,');
      let t = chk.check(v!, ctx);
      if (optional.has(i)) t = unwrapOptional(chk, t, v!);
      value = join2(chk, value, t, v!, 'heterogeneous_map_value', 'Map value uses wrong type,');
    });
    return chk.registry.getMapType(key!, value!);
  },
  evaluate(ev, ast, ctx) {
    const optional = optionalPositions.get(ast)!;
    const entries: Array<[unknown, unknown]> = [];
    (ast.args as AstNode[][]).forEach(([k, v], i) => {
      const key = ev.run(k!, ctx);
      let value = ev.run(v!, ctx);
      if (optional.has(i)) {
        if (!(value instanceof Optional)) notOptionalEntry(key, value);
        if (!value.hasValue()) return;
        value = value.value();
      }
      entries.push([key, value]);
    });
    // Typed keys as for the engine's own map literals (engine-patches.ts).
    return mapLiteralValue(entries);
  },
};

function patchParser(parser: Parser, AstNode: AstNodeCtor): void {
  const proto = Object.getPrototypeOf(parser) as Parser;
  const { parseList: engineParseList, parseMap: engineParseMap } = proto;
  const T = tokens(parser);
  const LIST = engineOp('[1]', 'list') as Op;
  const MAP = engineOp('{1: 1}', 'map') as Op;

  function limitExceeded(p: Parser, key: 'maxListElements' | 'maxMapEntries' | 'maxAstNodes', pos: number): never {
    throw new ParseError({ code: 'limit_exceeded', message: `Exceeded ${key} (${(p.limits as Record<string, number>)[key]})`, node: { pos, start: pos, end: pos, input: p.input } } as never);
  }

  /** `?` before an element or entry, where the optional syntax is on. */
  const optionalMark = (p: Parser): boolean => p.match(T.QUESTION) && p.registry.enableOptionalTypes && (p.consume(T.QUESTION), true);

  /** A literal node: the engine's own unless it has `?` positions. */
  function literal(p: Parser, plain: Op, withOptionals: Op, start: number, end: number, args: unknown, optional: Set<number>): AstNode {
    const node = new AstNode(p.input, start, start, end, optional.size > 0 ? withOptionals : plain, args);
    if (!p.astNodesRemaining--) limitExceeded(p, 'maxAstNodes', start);
    if (optional.size > 0) optionalPositions.set(node, optional);
    return node;
  }

  // Copies of the engine's parseList/parseMap that also take a `?` before an element or entry.
  proto.parseList = function parseList(this: Parser): AstNode {
    if (!isKubefakeRegistry(this.registry)) return engineParseList.call(this);
    const start = this.consume(T.LBRACKET);
    const elements: AstNode[] = [];
    const optional = new Set<number>();
    let remaining = this.limits.maxListElements;
    const element = (): void => {
      if (optionalMark(this)) optional.add(elements.length);
      elements.push(this.parseExpression());
      if (!remaining--) limitExceeded(this, 'maxListElements', elements.at(-1)!.pos);
    };
    if (!this.match(T.RBRACKET)) {
      element();
      while (this.match(T.COMMA)) {
        this.consume(T.COMMA);
        if (this.match(T.RBRACKET)) break;
        element();
      }
    }
    const closeEnd = this.lexer.pos;
    this.consume(T.RBRACKET);
    return literal(this, LIST, OPTIONAL_LIST, start, closeEnd, elements, optional);
  };

  proto.parseMap = function parseMap(this: Parser): AstNode {
    if (!isKubefakeRegistry(this.registry)) return engineParseMap.call(this);
    const start = this.consume(T.LBRACE);
    const entries: AstNode[][] = [];
    const optional = new Set<number>();
    let remaining = this.limits.maxMapEntries;
    const entry = (): void => {
      if (optionalMark(this)) optional.add(entries.length);
      const key = this.parseExpression();
      this.consume(T.COLON);
      entries.push([key, this.parseExpression()]);
      if (!remaining--) limitExceeded(this, 'maxMapEntries', key.pos);
    };
    if (!this.match(T.RBRACE)) {
      entry();
      while (this.match(T.COMMA)) {
        this.consume(T.COMMA);
        if (this.match(T.RBRACE)) break;
        entry();
      }
    }
    const closeEnd = this.lexer.pos;
    this.consume(T.RBRACE);
    return literal(this, MAP, OPTIONAL_MAP, start, closeEnd, entries, optional);
  };
}

/** Field selection on a value whose static type is a free type parameter: by its runtime type. */
function dynamicField(left: unknown, right: unknown, ast: AstNode, ev: Evaluator): unknown {
  return ev.debugType(left).field(left, right, ast, ev);
}

function patchChecker(checker: Checker): void {
  const proto = Object.getPrototypeOf(checker) as Checker;
  const original = proto.checkAccessOnType;
  proto.checkAccessOnType = function checkAccessOnType(this: Checker, ast, ctx, leftType, allowMissingField) {
    if (!isKubefakeRegistry(this.registry)) return original.call(this, ast, ctx, leftType, allowMissingField);
    if (leftType.kind === 'param') {
      if (ast.op === '.' || ast.op === '[]') ast.handle = dynamicField;
      return this.dynType;
    }
    // cel-go reports an unknown field of a declared type for `.?` and selections on optionals too.
    return original.call(this, ast, ctx, leftType, false);
  };
}

interface HasMacro {
  args: AstNode[];
}

/** has(e.f) for any operand e, looking through optionals (cel-go's evalTestOnly). */
function hasMacro({ args }: { args: AstNode[] }) {
  return {
    args,
    async: false,
    typeCheck(chk: Checker, m: HasMacro, ctx: Ctx): Type {
      const select = m.args[0]!;
      if (select.op !== '.') throw chk.createError('invalid_macro_argument', 'has() invalid argument', select);
      let operand = chk.check((select.args as AstNode[])[0]!, ctx);
      if (operand.kind === 'optional') operand = operand.valueType!;
      const field = (select.args as unknown[])[1] as string;
      switch (operand.kind) {
        case 'map':
        case 'dyn':
        case 'param':
          break;
        default: {
          const declared = chk.objectTypes.get(operand.name);
          if (declared === undefined || operand.kind !== 'message') throw chk.createError('cannot_index_type', `Cannot index type '${operand.name}'`, select);
          if (declared.fields && !Object.hasOwn(declared.fields, field)) throw chk.createError('no_such_key', `No such key: ${field}`, select);
        }
      }
      return chk.boolType;
    },
    evaluate(ev: Evaluator, m: HasMacro, ctx: unknown): boolean {
      const [operand, field] = m.args[0]!.args as [AstNode, string];
      let obj = ev.run(operand, ctx);
      if (obj instanceof Optional) {
        if (!obj.hasValue()) return false;
        obj = obj.value();
      }
      return isPresent(obj, field, ev);
    },
  };
}

function isPresent(obj: unknown, field: string, ev: Evaluator): boolean {
  if (obj === null || typeof obj !== 'object') return false; // apiserver leaves errorOnBadPresenceTest off
  if (obj instanceof Map) return obj.get(field) !== undefined || obj.has(field);
  if (Array.isArray(obj) || obj instanceof Set) throw new EvaluationError("unsupported index type 'string' in list");
  const proto = Object.getPrototypeOf(obj);
  if (proto === Object.prototype || proto === null) return Object.hasOwn(obj, field);
  // Schema objects hold exactly the fields that are set (values.ts).
  if (ev.objectTypesByConstructor.has(obj.constructor)) return Object.hasOwn(obj, field) && (obj as Record<string, unknown>)[field] !== undefined;
  return false;
}

function patchHas(parser: Parser): void {
  const proto = Object.getPrototypeOf(parser.registry) as { findMacro(name: string, hasReceiver: boolean, argLen: number): unknown };
  const original = proto.findMacro;
  const decl = { handler: hasMacro };
  proto.findMacro = function findMacro(this: object, name, hasReceiver, argLen) {
    if (name === 'has' && isKubefakeRegistry(this) && !hasReceiver && argLen === 1) return decl;
    return original.call(this, name, hasReceiver, argLen);
  };
}

let installed = false;

/**
 * Installs the patches once per process. On another engine version it throws (as every seam of
 * engine-internals.ts does); where the version cannot be read it patches only if the seams exist.
 */
export function installOptionalSyntax(): void {
  if (installed) return;
  installed = true;
  const version = engineVersion();
  if (version !== undefined && version !== PATCHED_ENGINE_VERSION) seamMoved(`installed version is ${version}`);
  const { parser, checker, AstNode } = probe();
  const parserProto = Object.getPrototypeOf(parser) as Record<string, unknown>;
  const checkerProto = Object.getPrototypeOf(checker) as Record<string, unknown>;
  const registryProto = Object.getPrototypeOf(parser.registry) as Record<string, unknown>;
  for (const [proto, name] of [[parserProto, 'parseList'], [parserProto, 'parseMap'], [parserProto, 'consume'], [checkerProto, 'checkAccessOnType'], [registryProto, 'findMacro']] as const) {
    if (typeof proto[name] !== 'function') seamMoved(`${name} not found`);
  }
  patchParser(parser, AstNode);
  patchChecker(checker);
  patchHas(parser);
}
