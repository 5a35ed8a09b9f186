// JSON → CEL values along a DeclType (UnstructuredToVal): integers exact as bigint, date-time and
// date strings as Date, duration strings as Duration, byte strings as bytes, objects as instances
// of the node's classes (only declared fields; unknown fields stay invisible), additionalProperties
// as Map, set and map lists as arrays tagged with their list type (list-semantics.ts). Values that do not fit their type (never after schema validation) are
// passed through for the engine to report.
//
// Every evaluation converts its object, so this is the hot path of a rule: each DeclType gets a
// converter function built once (per class set), strings, bools, doubles and lists of them are
// passed through without a copy, and objects are filled by generated code with constant property
// names (one inline cache per type instead of a megamorphic `out[name] = ...` shared by all types).
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { DeclType } from './decl-type.ts';
import { listSemantics, withListSemantics } from './list-semantics.ts';
import { durationOf, parseTimestamp as parseRfc3339 } from './library/timestamps.ts';
import { strfmtParseDuration } from '../go/duration.ts';

export type Classes = ReadonlyMap<DeclType, new () => object>;
export type Converter = (value: unknown) => unknown;

const converters = new WeakMap<Classes, Map<DeclType, Converter>>();

export function toCel(value: unknown, decl: DeclType, classes: Classes): unknown {
  return converter(decl, classes)(value);
}

/** The converter of values of `decl`, built on first use and kept with the class set. */
export function converter(decl: DeclType, classes: Classes): Converter {
  let byDecl = converters.get(classes);
  if (byDecl === undefined) converters.set(classes, (byDecl = new Map()));
  let convert = byDecl.get(decl);
  if (convert === undefined) byDecl.set(decl, (convert = build(decl, classes)));
  return convert;
}

/** JSON values of this type are already their CEL values (no copy needed). */
function isIdentity(decl: DeclType): boolean {
  switch (decl.kind) {
    case 'scalar':
      return decl.scalar === 'string' || decl.scalar === 'bool' || decl.scalar === 'double';
    case 'list':
      return decl.listType === 'atomic' && isIdentity(decl.elem);
    default:
      return false;
  }
}

const identity: Converter = (v) => (v === undefined ? null : v);

function build(decl: DeclType, classes: Classes): Converter {
  if (isIdentity(decl)) return identity;
  switch (decl.kind) {
    case 'object':
      return objectConverter(decl, classes);
    case 'list': {
      const elem = converter(decl.elem, classes);
      // Set and map lists: a tagged copy, for their `==` and `+` (list-semantics.ts).
      const sem = listSemantics(decl);
      if (sem && elem === identity) return (v) => (v === null || v === undefined ? null : Array.isArray(v) ? withListSemantics(v.slice(), sem) : v);
      return (v) => {
        if (v === null || v === undefined) return null;
        if (!Array.isArray(v)) return v;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = elem(v[i]);
        return sem ? withListSemantics(out, sem) : out;
      };
    }
    case 'map': {
      const elem = converter(decl.elem, classes);
      return (v) => {
        if (v === null || v === undefined) return null;
        if (typeof v !== 'object' || Array.isArray(v)) return v;
        const out = new Map<string, unknown>();
        for (const k of Object.keys(v)) out.set(k, elem((v as Record<string, unknown>)[k]));
        return out;
      };
    }
    case 'scalar':
      return scalarConverter(decl.scalar);
  }
}

// The bigints of small whole numbers, made once: replicas, counts and indexes are mostly small, and
// BigInt(n) allocates on every call (bigints are immutable, so sharing them is safe).
const SMALL_INTS = Array.from({ length: 1024 }, (_, i) => BigInt(i));

const toInt: Converter = (v) => {
  if (typeof v !== 'number') return v ?? null;
  if (v >= 0 && v < 1024 && (v | 0) === v) return SMALL_INTS[v];
  return Number.isInteger(v) ? BigInt(v) : v;
};

function scalarConverter(kind: string): Converter {
  switch (kind) {
    case 'int':
    case 'dyn':
      return toInt;
    case 'timestamp':
      return (v) => (typeof v === 'string' ? parseTimestamp(v) ?? v : v ?? null);
    case 'duration':
      return (v) => (typeof v === 'string' ? parseDuration(v) ?? v : v ?? null);
    case 'bytes':
      return (v) => (typeof v === 'string' ? Uint8Array.from(Buffer.from(v, 'base64')) : v ?? null);
    default:
      return identity;
  }
}

/**
 * An object's converter as generated code: one statement per declared field, with the JSON and
 * CEL names as string literals (JSON.stringify makes any property name a safe literal). A null
 * field reads as absent: has() is false and selecting it is "no such key". Names that exist on
 * Object.prototype (`toString`, `constructor`) are read only when the JSON has them as own keys.
 */
function objectConverter(decl: Extract<DeclType, { kind: 'object' }>, classes: Classes): Converter {
  const Ctor = classes.get(decl) ?? Object;
  // A type with a field named `constructor` is Map-based (environment.ts).
  const mapBacked = Ctor.prototype instanceof Map;
  const fieldConverters: Converter[] = [];
  const lines: string[] = [];
  for (const [celName, f] of decl.fields) {
    const json = JSON.stringify(f.jsonName);
    const read = f.jsonName in Object.prototype ? `v = hasOwn(json, ${json}) ? json[${json}] : undefined;` : `v = json[${json}];`;
    const convert = converter(f.type, classes);
    let value = 'v';
    if (convert !== identity) {
      fieldConverters.push(convert);
      value = `c${fieldConverters.length - 1}(v)`;
    }
    const store = mapBacked ? `out.set(${JSON.stringify(celName)}, ${value})` : `out[${JSON.stringify(celName)}] = ${value}`;
    lines.push(`${read} if (v !== undefined && v !== null) ${store};`);
  }
  const names = fieldConverters.map((_, i) => `c${i}`);
  const body = `return function convertObject(json) {
  if (json === null || json === undefined) return null;
  if (typeof json !== 'object' || Array.isArray(json)) return json;
  const out = new Ctor();
  let v;
  ${lines.join('\n  ')}
  return out;
};`;
  return new Function('Ctor', 'hasOwn', ...names, body)(Ctor, Object.hasOwn, ...fieldConverters) as Converter;
}

/** RFC 3339 with nanoseconds kept (timestamps.ts); other date-time/date forms at millisecond precision. */
function parseTimestamp(s: string): Date | undefined {
  try {
    const exact = parseRfc3339(s);
    if (exact !== undefined) return exact;
  } catch {
    // Outside CEL's range: left to Date, as before.
  }
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A CRD `format: duration` string as Kubernetes reads it (strfmt.ParseDuration: "1d", "2 weeks" too). */
function parseDuration(s: string): Duration | undefined {
  const nanos = strfmtParseDuration(s);
  return nanos === undefined ? undefined : durationOf(nanos);
}
