// JSON → CEL values along a DeclType (UnstructuredToVal): integers exact as bigint, date-time and
// date strings as Date, duration strings as Duration, byte strings as bytes, objects as instances
// of the node's classes (only declared fields; unknown fields stay invisible), additionalProperties
// as Map, set lists as Set. Values that do not fit their type (never after schema validation) are
// passed through for the engine to report.
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { DeclType } from './decl-type.ts';

export type Classes = ReadonlyMap<DeclType, new () => object>;

export function toCel(value: unknown, decl: DeclType, classes: Classes): unknown {
  if (value === null || value === undefined) return null;
  switch (decl.kind) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const Ctor = classes.get(decl);
      const out = (Ctor ? new Ctor() : {}) as Record<string, unknown>;
      const json = value as Record<string, unknown>;
      for (const [celName, f] of decl.fields) {
        // A null field reads as absent: has() is false and selecting it is "no such key".
        if (Object.hasOwn(json, f.jsonName) && json[f.jsonName] !== null) out[celName] = toCel(json[f.jsonName], f.type, classes);
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(value)) return value;
      const items = value.map((v) => toCel(v, decl.elem, classes));
      return decl.listType === 'set' && decl.elem.kind === 'scalar' ? new Set(items) : items;
    }
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toCel(v, decl.elem, classes)]));
    }
    case 'scalar':
      return scalarToCel(value, decl.scalar);
  }
}

function scalarToCel(value: unknown, kind: string): unknown {
  switch (kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'dyn':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'timestamp':
      return typeof value === 'string' ? parseTimestamp(value) ?? value : value;
    case 'duration':
      return typeof value === 'string' ? parseDuration(value) ?? value : value;
    case 'bytes':
      return typeof value === 'string' ? Uint8Array.from(Buffer.from(value, 'base64')) : value;
    default:
      return value;
  }
}

function parseTimestamp(s: string): Date | undefined {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const UNIT_NANOS: Record<string, bigint> = { ns: 1n, us: 1_000n, µs: 1_000n, μs: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** time.ParseDuration, to a CEL Duration. */
export function parseDuration(input: string): Duration | undefined {
  let s = input;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return new Duration(0n, 0);
  if (s === '') return undefined;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = UNIT_NANOS[m[3]!]!;
    const frac = m[2] ?? '';
    total += BigInt(m[1] || '0') * unit + (frac ? (BigInt(frac.slice(0, 18).padEnd(18, '0')) * unit) / 10n ** 18n : 0n);
    s = s.slice(m[0].length);
  }
  if (negative) total = -total;
  const seconds = total / 1_000_000_000n;
  return new Duration(seconds, Number(total - seconds * 1_000_000_000n));
}
