// The patch types of MutatingAdmissionPolicy expressions (k8s.io/apiserver pkg/cel/mutation:
// the `Object` type of ApplyConfiguration expressions with its dynamic `Object.<path>` field types,
// and `JSONPatch` with op/path/from/value; pkg/cel/library/jsonpatch.go's jsonpatch.escapeKey).
// The engine has no message construction (`Object{spec: Object.spec{replicas: 1}}`), so such an
// expression is rewritten before parsing into calls of hidden functions with a map of its fields
// (`__object__("Object.spec", {"replicas": dyn(1)})`); the values become `dyn` so that the fields
// of one message may differ in type. Compile errors in such expressions show the rewritten text.
import type { Environment } from '@marcbachmann/cel-js';
import { registerQualifiedFunction } from '../qualified-names.ts';

const OBJECT_TYPE = 'Object';
const JSON_PATCH_TYPE = 'JSONPatch';

/** A constructed `Object` or `Object.<path>` value. */
export class CelObjectValue {
  readonly typeName: string;
  readonly fields: Map<string, unknown>;
  constructor(typeName: string, fields: Map<string, unknown>) {
    this.typeName = typeName;
    this.fields = fields;
  }
}

/** A constructed JSONPatch. */
export class CelJSONPatch {
  readonly fields: Map<string, unknown>;
  constructor(fields: Map<string, unknown>) {
    this.fields = fields;
  }
}

const toMap = (m: unknown): Map<string, unknown> => (m instanceof Map ? (m as Map<string, unknown>) : new Map(Object.entries((m ?? {}) as Record<string, unknown>)));

export function registerPatchTypes(env: Environment): void {
  env.registerType(OBJECT_TYPE, { ctor: CelObjectValue as unknown as new () => object, fields: {} });
  env.registerType(JSON_PATCH_TYPE, { ctor: CelJSONPatch as unknown as new () => object, fields: { op: 'string', path: 'string', from: 'string', value: 'dyn' } });
  env.registerFunction(`__object_root__(map<string, dyn>): ${OBJECT_TYPE}`, (m: unknown) => new CelObjectValue(OBJECT_TYPE, toMap(m)));
  env.registerFunction('__object__(string, map<string, dyn>): dyn', (name: string, m: unknown) => new CelObjectValue(name, toMap(m)));
  env.registerFunction(`__jsonpatch__(map<string, dyn>): ${JSON_PATCH_TYPE}`, (m: unknown) => new CelJSONPatch(toMap(m)));
  // jsonpatch.escapeKey: RFC 6901 escaping of one path segment.
  registerQualifiedFunction(env, 'jsonpatch.escapeKey', ['string'], 'string', ((k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')) as never);
}

// ---- the message-construction rewrite ----------------------------------------------------------

const IDENT = /[_a-zA-Z][_a-zA-Z0-9]*/y;

/** Skips a string or bytes literal at `i` (quote at `i`, or a prefix r/b before it); returns the index after it. */
function skipString(src: string, i: number): number {
  let j = i;
  let raw = false;
  while (src[j] === 'r' || src[j] === 'R' || src[j] === 'b' || src[j] === 'B') {
    if (src[j] === 'r' || src[j] === 'R') raw = true;
    j++;
  }
  const q = src[j]!;
  const triple = src.startsWith(q.repeat(3), j);
  const close = triple ? q.repeat(3) : q;
  j += close.length;
  while (j < src.length) {
    if (!raw && src[j] === '\\') {
      j += 2;
      continue;
    }
    if (src.startsWith(close, j)) return j + close.length;
    if (!triple && src[j] === '\n') return j;
    j++;
  }
  return j;
}

const isStringStart = (src: string, i: number): boolean => {
  let j = i;
  while (j < i + 2 && /[rRbB]/.test(src[j] ?? '')) j++;
  return (src[j] === '"' || src[j] === "'") && (j === i || !/[_a-zA-Z0-9]/.test(src[i - 1] ?? ''));
};

/** Whether the expression may construct messages (a dotted identifier directly followed by `{`). */
export function hasMessageConstruction(src: string): boolean {
  return /(?:^|[^.\w])(?:Object(?:\.[_a-zA-Z][_a-zA-Z0-9]*)*|JSONPatch)\s*\{/.test(src);
}

/**
 * Rewrites `Name{f: v, ...}` (Name `Object`, `Object.a.b` or `JSONPatch`) into the hidden
 * constructor calls, recursively; anything else is copied as it is.
 */
export function rewriteMessageConstruction(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    if (isStringStart(src, i)) {
      const end = skipString(src, i);
      out += src.slice(i, end);
      i = end;
      continue;
    }
    IDENT.lastIndex = i;
    const m = /[_a-zA-Z]/.test(src[i]!) && !/[.\w]/.test(src[i - 1] ?? '') ? IDENT.exec(src) : null;
    if (m) {
      let name = m[0];
      let j = i + name.length;
      for (;;) {
        const dot = /^\s*\.\s*([_a-zA-Z][_a-zA-Z0-9]*)/.exec(src.slice(j));
        if (!dot || !(name === OBJECT_TYPE || name.startsWith(OBJECT_TYPE + '.'))) break;
        name += '.' + dot[1];
        j += dot[0].length;
      }
      const brace = /^\s*\{/.exec(src.slice(j));
      if (brace && (name === JSON_PATCH_TYPE || name === OBJECT_TYPE || name.startsWith(OBJECT_TYPE + '.'))) {
        const open = j + brace[0].length - 1;
        const close = matchingBrace(src, open);
        // Unbalanced: left as written, for the parser to report.
        if (close < 0) {
          out += src.slice(i, j);
          i = j;
          continue;
        }
        const fields = splitFields(src.slice(open + 1, close)).map(([field, value]) => `${JSON.stringify(field)}: dyn(${rewriteMessageConstruction(value)})`);
        const map = `{${fields.join(', ')}}`;
        out += name === JSON_PATCH_TYPE ? `__jsonpatch__(${map})` : name === OBJECT_TYPE ? `__object_root__(${map})` : `__object__(${JSON.stringify(name)}, ${map})`;
        i = close + 1;
        continue;
      }
      out += src.slice(i, j);
      i = j;
      continue;
    }
    out += src[i];
    i++;
  }
  return out;
}

/** The index of the `}` closing the `{` at `open`, or -1. */
function matchingBrace(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; ) {
    if (isStringStart(src, i)) {
      i = skipString(src, i);
      continue;
    }
    const c = src[i]!;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return -1;
}

/** `f: v, g: w` at depth 0 → [[f, v], [g, w]]. */
function splitFields(body: string): [string, string][] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; ) {
    if (isStringStart(body, i)) {
      i = skipString(body, i);
      continue;
    }
    const c = body[i]!;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  parts.push(body.slice(start));
  return parts
    .filter((p) => p.trim() !== '')
    .map((p) => {
      const colon = p.indexOf(':');
      return [p.slice(0, colon).trim(), p.slice(colon + 1)] as [string, string];
    });
}

// ---- CEL values → JSON ----------------------------------------------------------------------------

/** A CEL value as the JSON the patch is made of (ints as numbers, maps and objects as objects). */
export function celToJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof CelObjectValue || v instanceof CelJSONPatch) return celToJson(v.fields);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), celToJson(x)]));
  if (Array.isArray(v)) return v.map(celToJson);
  if (v instanceof Date) return v.toISOString().replace(/\.000Z$/, 'Z');
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, celToJson(x)]));
    if (typeof (v as { valueOf?: unknown }).valueOf === 'function') {
      const p = (v as { valueOf(): unknown }).valueOf();
      if (p !== v) return celToJson(p);
    }
    return String(v);
  }
  return v;
}

/**
 * CheckTypeNamesMatchFieldPathNames (pkg/cel/mutation/dynamic/objects.go): every nested object
 * type names its field path from the value's own type (`Object.spec.template`), through lists and
 * maps too; the errors joined by newlines, or undefined.
 */
export function checkTypeNames(v: CelObjectValue): string | undefined {
  const errs: string[] = [];
  const walk = (x: unknown, path: string): void => {
    if (x instanceof CelObjectValue) {
      if (x.typeName !== path) errs.push(`unexpected type name ${JSON.stringify(x.typeName)}, expected ${JSON.stringify(path)}, which matches field name path from root Object type`);
      for (const [k, f] of x.fields) walk(f, `${path}.${k}`);
    } else if (Array.isArray(x)) {
      for (const item of x) walk(item, path);
    } else if (x instanceof Map) {
      for (const item of x.values()) walk(item, path);
    } else if (x !== null && typeof x === 'object' && (Object.getPrototypeOf(x) === Object.prototype || Object.getPrototypeOf(x) === null)) {
      for (const item of Object.values(x)) walk(item, path);
    }
  };
  walk(v, v.typeName);
  return errs.length ? errs.join('\n') : undefined;
}
