// What kubefake's CEL fixes know about @marcbachmann/cel-js internals, in one place: the pinned
// version, the one rule for a moved seam (throw at the first compile), and which registries are
// kubefake's. The fixes patch shared engine objects (the Parser, TypeChecker and Registry
// prototypes, the AST node prototype), so each patched method first asks whether the parser,
// checker or registry at hand belongs to a kubefake environment; any other `new Environment()` of
// the process keeps the engine's own behaviour. Also the engine types several modules declare.
import { Environment } from '@marcbachmann/cel-js';

/** The engine version every seam was written and tested against (package.json pins it). */
export const PATCHED_ENGINE_VERSION = '8.0.0';

/** A fix cannot be installed on this engine: fail loudly rather than silently drop it. */
export function seamMoved(what: string): never {
  throw new Error(`kubefake CEL engine patches were written for @marcbachmann/cel-js ${PATCHED_ENGINE_VERSION}; engine seam moved: ${what}`);
}

// Every Environment has its own registry (a clone of its parent's), shared by its parser, checkers
// and evaluator (their `registry`).
const kubefakeRegistries = new WeakSet<object>();

/** Marks the registry of a kubefake environment: the engine fixes apply to its parses and checks. */
export function markKubefakeRegistry(registry: object): void {
  kubefakeRegistries.add(registry);
}

/** Whether a registry (a parser's, checker's or evaluator's `registry`) is a kubefake environment's. */
export function isKubefakeRegistry(registry: unknown): boolean {
  return typeof registry === 'object' && registry !== null && kubefakeRegistries.has(registry);
}

// ---- engine types the fixes and libraries share (the engine exports none of them) -------------

/** An AST node (parser.js ASTNode) as macros see it. */
export interface NodeShape {
  op: string;
  args: unknown;
}

/** An AST node with its place in the source, as errors are reported at. */
export interface SourceNode extends NodeShape {
  pos: number;
  start: number;
  end: number;
  input: string;
}

/** The scope a macro binds its iteration variables in (checker and evaluator contexts). */
export interface IterationScope {
  forkWithVariable(name: string, type: unknown): IterationScope;
  reuse(parent: IterationScope): IterationScope;
  setIterValue(v: unknown, ev: unknown): IterationScope;
}

/** The check and evaluate functions of one kind of node (the engine's operations are not exported). */
export interface EngineOp {
  name: string;
  check: unknown;
  evaluate: unknown;
}

/**
 * The engine's own operation of a kind of node, read off a plain parse of `source` (an environment
 * that no fix acts on, so it is the engine's even for the literals optional-syntax.ts parses).
 */
export function engineOp(source: string, name: string): EngineOp {
  const ast = (new Environment().parse(source) as unknown as { ast: NodeShape & { meta: { check?: unknown; evaluate?: unknown } } }).ast;
  if (ast.op !== name || typeof ast.meta.check !== 'function' || typeof ast.meta.evaluate !== 'function') seamMoved(`'${name}' node operations`);
  return { name, check: ast.meta.check, evaluate: ast.meta.evaluate };
}
