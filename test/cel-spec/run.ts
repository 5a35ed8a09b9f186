// Runs google/cel-spec's simple conformance files (vendored in ./testdata, see README.md) through
// `kubefake/cel`'s compileExpression. A case passes on an equal value, or on any error when an
// eval_error is expected. Cases that need protobuf messages (TestAllTypes, wrappers, object
// values) are counted apart: Kubernetes rules never see them.
import { readFileSync } from 'node:fs';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { compileExpression } from '../../src/cel/index.ts';
import { celEqual } from '../../src/cel/value-ops.ts';
import { isMessage, parseTextproto, type TextMessage, type TextScalar, type TextValue } from './textproto.ts';

export const FILES = ['basic', 'macros', 'string', 'comparisons', 'logic', 'integer_math', 'timestamps', 'optionals', 'conversions', 'lists', 'string_ext', 'macros2'];

export interface CaseResult {
  name: string;
  proto: boolean;
  passed: boolean;
  detail?: string;
}

class Skip extends Error {}

const first = (m: TextMessage, f: string): TextValue | undefined => m[f]?.[0];
const token = (v: TextValue | undefined): string => (v && !isMessage(v) ? ((v as TextScalar).token ?? '') : '');
const text = (v: TextValue | undefined): string => (v && !isMessage(v) && (v as TextScalar).bytes ? new TextDecoder().decode((v as TextScalar).bytes) : '');

function double(t: string): number {
  const s = t.toLowerCase();
  if (s === 'inf' || s === 'infinity') return Infinity;
  if (s === '-inf' || s === '-infinity') return -Infinity;
  if (s === 'nan') return NaN;
  return Number(t);
}

/** A conformance Value as the JavaScript value the engine produces. */
function toJs(v: TextValue | undefined): unknown {
  if (!isMessage(v)) throw new Skip('malformed value');
  const [kind] = Object.keys(v);
  const x = first(v, kind!);
  switch (kind) {
    case 'int64_value':
      return BigInt(token(x));
    case 'uint64_value':
      return new UnsignedInt(BigInt(token(x)));
    case 'double_value':
      return double(token(x));
    case 'string_value':
      return text(x);
    case 'bytes_value':
      return (x && !isMessage(x) ? (x as TextScalar).bytes : undefined) ?? new Uint8Array();
    case 'bool_value':
      return token(x) === 'true';
    case 'null_value':
      return null;
    case 'list_value':
      return ((isMessage(x) ? x.values : undefined) ?? []).map(toJs);
    case 'map_value': {
      const out = new Map<unknown, unknown>();
      for (const e of (isMessage(x) ? x.entries : undefined) ?? []) if (isMessage(e)) out.set(toJs(first(e, 'key')), toJs(first(e, 'value')));
      return out;
    }
    case 'type_value':
      return { celType: text(x) };
    default:
      throw new Skip(`value kind ${kind}`);
  }
}

/** Equality of an engine result with an expected value (maps may come back as plain objects, NaN equals NaN). */
function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && Number.isNaN(expected)) return typeof actual === 'number' && Number.isNaN(actual);
  if (typeof expected === 'number') return typeof actual === 'number' && (actual === expected);
  if (typeof expected === 'bigint') return typeof actual === 'bigint' && actual === expected;
  if (expected instanceof UnsignedInt) return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected && typeof expected === 'object' && 'celType' in expected) return typeof actual === 'object' && actual !== null && (actual as { name?: string }).name === (expected as { celType: string }).celType;
  if (expected instanceof Map) {
    const entries = actual instanceof Map ? [...actual] : actual && typeof actual === 'object' ? Object.entries(actual) : undefined;
    if (!entries || entries.length !== expected.size) return false;
    return [...expected].every(([k, v]) => entries.some(([ak, av]) => (ak === k || String(ak) === String(k)) && same(av, v)));
  }
  if (Array.isArray(expected)) {
    const arr = actual instanceof Set ? [...actual] : actual;
    return Array.isArray(arr) && arr.length === expected.length && expected.every((e, i) => same(arr[i], e));
  }
  return celEqual(actual, expected);
}

const PRIMITIVES: Record<string, string> = { INT64: 'int', UINT64: 'uint', DOUBLE: 'double', STRING: 'string', BOOL: 'bool', BYTES: 'bytes' };

function declType(t: TextValue | undefined): string {
  if (!isMessage(t)) return 'dyn';
  if (t.primitive) return PRIMITIVES[token(first(t, 'primitive'))] ?? 'dyn';
  if (t.well_known) return ({ TIMESTAMP: 'google.protobuf.Timestamp', DURATION: 'google.protobuf.Duration' } as Record<string, string>)[token(first(t, 'well_known'))] ?? 'dyn';
  if (t.list_type) return `list<${declType(isMessage(first(t, 'list_type')) ? first(first(t, 'list_type') as TextMessage, 'elem_type') : undefined)}>`;
  if (t.map_type) {
    const m = first(t, 'map_type') as TextMessage;
    return `map<${declType(first(m, 'key_type'))}, ${declType(first(m, 'value_type'))}>`;
  }
  return 'dyn';
}

function runCase(t: TextMessage, file: string, section: string): CaseResult {
  const name = `${file}/${section}/${text(first(t, 'name'))}`;
  const expr = text(first(t, 'expr'));
  const container = text(first(t, 'container'));
  const proto = /TestAllTypes|NestedTestAllTypes|google\.protobuf\.(?!Timestamp|Duration)|proto[23]|object_value|enum_value/.test(expr + container) || JSON.stringify(t).includes('object_value');
  try {
    const variables: Record<string, string> = {};
    for (const e of t.type_env ?? []) {
      if (!isMessage(e)) continue;
      const ident = first(e, 'ident');
      variables[text(first(e, 'name'))] = declType(isMessage(ident) ? first(ident, 'type') : undefined);
    }
    const bindings: Record<string, unknown> = {};
    for (const b of t.bindings ?? []) {
      if (!isMessage(b)) continue;
      const key = text(first(b, 'key'));
      const v = first(b, 'value');
      bindings[key] = toJs(isMessage(v) ? first(v, 'value') : undefined);
      variables[key] ??= 'dyn';
    }
    const expectError = t.eval_error !== undefined;
    const expected = expectError ? undefined : t.value ? toJs(first(t, 'value')) : true;
    let compiled;
    try {
      compiled = compileExpression(expr, variables, { disableCheck: token(first(t, 'disable_check')) === 'true', homogeneousAggregateLiterals: false });
    } catch (e) {
      return { name, proto, passed: false, detail: `setup: ${(e as Error).message}` };
    }
    if (compiled.error !== undefined) return { name, proto, passed: expectError, detail: compiled.error.split('\n')[0] };
    let actual: unknown;
    try {
      actual = compiled.evaluate(bindings);
    } catch (e) {
      return { name, proto, passed: expectError, detail: (e as Error).message.split('\n')[0] };
    }
    if (expectError) return { name, proto, passed: false, detail: 'expected an error' };
    return { name, proto, passed: same(actual, expected), detail: 'wrong value' };
  } catch (e) {
    if (e instanceof Skip) return { name, proto: true, passed: false, detail: e.message };
    throw e;
  }
}

export function runFile(file: string): CaseResult[] {
  const doc = parseTextproto(readFileSync(new URL(`./testdata/${file}.textproto`, import.meta.url), 'utf8'));
  const out: CaseResult[] = [];
  for (const s of doc.section ?? []) {
    if (!isMessage(s)) continue;
    for (const t of s.test ?? []) if (isMessage(t)) out.push(runCase(t, file, text(first(s, 'name'))));
  }
  return out;
}
