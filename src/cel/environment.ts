// CEL environments. One base environment holds the Kubernetes libraries (built once per process);
// every schema node with rules gets a clone with its own object types and `self`/`oldSelf`
// declared, as apiextensions-apiserver declares a fresh self type per node.
import { Environment } from '@marcbachmann/cel-js';
import type { DeclType } from './decl-type.ts';
import { registerLibraries } from './library/index.ts';
import { meterEnvironment } from './runtime-cost.ts';
import { celEqual } from './value-ops.ts';

/** cel-go options Kubernetes turns on: optional types, homogeneous aggregate literals. */
const BASE_OPTIONS = { enableOptionalTypes: true, homogeneousAggregateLiterals: true, unlistedVariablesAreDyn: false };

let base: Environment | undefined;

/** The shared environment with every library; frozen (cloned) once built. */
export function baseEnvironment(): Environment {
  if (base === undefined) {
    const env = new Environment(BASE_OPTIONS);
    registerLibraries(env);
    base = env;
  }
  return base;
}

const SCALAR_TYPES: Record<string, string> = {
  string: 'string',
  int: 'int',
  double: 'double',
  bool: 'bool',
  bytes: 'bytes',
  timestamp: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
  dyn: 'dyn',
};

/** The environment of one schema node: its types, and the classes its object values are built from. */
export interface NodeEnvironment {
  env: Environment;
  /** The class of each object type, for the JSON → CEL conversion. */
  classes: Map<DeclType, new () => object>;
  /** CEL type name of `self`. */
  selfType: string;
}

/**
 * Declares `decl` (and everything below it) in a clone of the base environment, with `self` of
 * that type and `oldSelf` of that type, or `optional<type>` for optionalOldSelf rules.
 */
export function nodeEnvironment(decl: DeclType, oldSelfOptional: boolean, typeName = 'selfType'): NodeEnvironment {
  const env = baseEnvironment().clone();
  const classes = new Map<DeclType, new () => object>();
  const selfType = declare(env, decl, typeName, classes);
  env.registerVariable('self', selfType);
  env.registerVariable('oldSelf', oldSelfOptional ? `optional<${selfType}>` : selfType);
  meterEnvironment(env);
  return { env, classes, selfType };
}

/** Declares `decl` and everything below it as types named after `name` in `env`; answers the CEL type name. */
export function declareDeclType(env: Environment, decl: DeclType, name: string, classes: Map<DeclType, new () => object>): string {
  return declare(env, decl, name, classes);
}

function declare(env: Environment, decl: DeclType, name: string, classes: Map<DeclType, new () => object>): string {
  switch (decl.kind) {
    case 'scalar':
      return SCALAR_TYPES[decl.scalar]!;
    case 'list':
      return `list<${declare(env, decl.elem, `${name}.items`, classes)}>`;
    case 'map':
      return `map<string, ${declare(env, decl.elem, `${name}.values`, classes)}>`;
    case 'object': {
      const fields: Record<string, string> = {};
      for (const [celName, f] of decl.fields) fields[celName] = declare(env, f.type, `${name}.${celName}`, classes);
      // A named class per type: the engine finds an object's type through its constructor. A type
      // with a field named `constructor` keeps its fields in a Map (the engine reads a Map-based
      // object's fields with get()), so that the field cannot hide the class.
      const ctor = decl.fields.has('constructor') ? { [name]: class extends Map {} }[name]! : { [name]: class {} }[name]!;
      // Nothing inherited from Object.prototype: a declared field named `valueOf` or `toString`
      // that the object lacks must read as absent, not as a function.
      if (!(ctor.prototype instanceof Map)) Object.setPrototypeOf(ctor.prototype, null);
      classes.set(decl, ctor);
      env.registerType(name, { ctor, fields });
      env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEqual(a, b));
      // cel-go assigns null to object (message) types, so `self.spec == null` checks; an object is
      // never null, so it is simply false (the engine's own null is the `null` type).
      env.registerOperator(`${name} == null`, () => false);
      return name;
    }
  }
}
