// runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation (apimachinery v0.36
// pkg/runtime/converter.go): how a strategic merge patch's result becomes the typed object, with
// no JSON round trip. Its rules and texts differ from the JSON decoder's: reflect conversions
// (an int64 into an int32 wraps, a whole float64 converts), `unrecognized type: int32` for a
// string into a number, `cannot restore struct from: string`, the first error in struct field
// order, and the unknown fields sorted by their text.
import { goJson } from '../errors/go-format.ts';
import { goZero, OMITEMPTY, omittedOnEncode, setGoZero, type GoType, type GoTypeSystem, type SpecialDecoder } from './typed-json.ts';
import { setOwn } from '../util/own-property.ts';

export interface ConverterOptions {
  /** returnUnknownFields (fieldValidation Strict or Warn). */
  returnUnknownFields: boolean;
  special: Readonly<Record<string, SpecialDecoder>>;
  specialZero?: Readonly<Record<string, unknown>>;
  base64Error(text: string): string | undefined;
}

export type ConverterResult = { ok: true; value: unknown; unknownFields: string[] } | { ok: false; error: string };

class ConvertError {
  readonly error: string;
  constructor(error: string) {
    this.error = error;
  }
}

/** reflect.Kind of an unstructured value (JSON numbers decode as int64 when whole, as PreserveInts does). */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return 'map';
  }
}

/** reflect.Kind().String() of a resolved type. */
function goKind(t: GoType): string {
  switch (t.k) {
    case 'int':
    case 'uint':
      return `${t.k}${t.bits === 64 && !/64$/.test(t.s) && /^u?int$/.test(t.s) ? '' : t.bits}`;
    case 'float':
      return `float${t.bits}`;
    case 'ptr':
      return 'ptr';
    case 'special':
    case 'struct':
      return 'struct';
    default:
      return t.k;
  }
}

/** Go's integer conversion: wraps to the target's width. */
function wrapInt(n: number, t: GoType & { k: 'int' | 'uint' }): number {
  const v = BigInt(Math.trunc(n));
  return Number(t.k === 'int' ? BigInt.asIntN(t.bits, v) : BigInt.asUintN(t.bits, v));
}

export function convertFromUnstructured(types: GoTypeSystem, value: Record<string, unknown>, root: string, options: ConverterOptions): ConverterResult {
  const unknown: string[] = [];
  const path: string[] = [];

  const convert = (sv: unknown, t: GoType): unknown => {
    if (sv === null || sv === undefined) return goZero(t, options.specialZero);
    switch (t.k) {
      case 'string':
      case 'bool':
      case 'int':
      case 'uint':
      case 'float':
        return scalar(sv, t);
      case 'special': {
        const decode = options.special[t.id];
        if (!decode) return sv;
        const r = decode(goJson(sv));
        if ('error' in r) throw new ConvertError(r.error);
        if ('typeError' in r) throw new ConvertError(`json: cannot unmarshal ${r.typeError.value} into Go value of type ${r.typeError.type}`);
        return r.value === undefined ? goZero(t, options.specialZero) : r.value;
      }
      case 'ptr':
        return convert(sv, t.elem());
      case 'map': {
        if (kindOf(sv) !== 'map') throw new ConvertError(`cannot restore map from ${kindOf(sv)}`);
        const out: Record<string, unknown> = {};
        const elem = t.elem();
        for (const [k, v] of Object.entries(sv as Record<string, unknown>)) {
          setOwn(out, k, v === null ? goZero(elem, options.specialZero) : convert(v, elem));
        }
        return out;
      }
      case 'slice': {
        if (t.bytes && typeof sv === 'string') {
          const error = sv === '' ? undefined : options.base64Error(sv);
          if (error !== undefined) throw new ConvertError(`error decoding from json: ${error}`);
          return sv;
        }
        if (!Array.isArray(sv)) throw new ConvertError(`cannot restore slice from ${kindOf(sv)}`);
        const elem = t.elem();
        return sv.map((v, i) => {
          path.push(`[${i}]`);
          try {
            return convert(v, elem);
          } finally {
            path.pop();
          }
        });
      }
      case 'struct': {
        if (kindOf(sv) !== 'map') throw new ConvertError(`cannot restore struct from: ${kindOf(sv)}`);
        const src = sv as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const name of t.order) {
          if (!Object.hasOwn(src, name)) continue;
          const field = t.fields.get(name)!;
          const ft = field.type();
          path.push(path.length ? `.${name}` : name);
          try {
            const v = src[name];
            if (v === null) {
              // A nil value sets the Go zero: nil for pointers, slices and maps.
              if (ft.k === 'ptr' || ft.k === 'slice' || ft.k === 'map') {
                if (!(field.flags & OMITEMPTY)) out[name] = null;
              } else setGoZero(out, name, ft, field.flags, options.specialZero);
            } else {
              const converted = convert(v, ft);
              if (!omittedOnEncode(converted, ft, field.flags)) out[name] = converted;
            }
          } finally {
            path.pop();
          }
        }
        if (options.returnUnknownFields) {
          for (const key of Object.keys(src)) {
            if (!t.fields.has(key)) unknown.push(`unknown field "${path.length ? `${path.join('')}.` : ''}${key}"`);
          }
        }
        return out;
      }
    }
  };

  /** fromUnstructured's simple-type branch: assignable, or a conversion JSON allows. */
  const scalar = (sv: unknown, t: GoType & { k: 'string' | 'bool' | 'int' | 'uint' | 'float' }): unknown => {
    const st = kindOf(sv);
    if (st === 'string' && t.k === 'string') return sv;
    if (st === 'bool' && t.k === 'bool') return sv;
    if (st === 'int64') {
      if (t.k === 'int' || t.k === 'uint') return wrapInt(sv as number, t);
      if (t.k === 'float') return sv;
      // int converts to string in reflect, but not in JSON.
      if (t.k === 'string') throw new ConvertError(`cannot convert int64 to ${t.s}`);
    }
    if (st === 'float64') {
      if (t.k === 'float') return sv;
      if (t.k === 'int' || t.k === 'uint') {
        if (Number.isInteger(sv)) return wrapInt(sv as number, t);
        throw new ConvertError(`cannot convert float64 to ${t.s}`);
      }
    }
    throw new ConvertError(`unrecognized type: ${goKind(t)}`);
  };

  try {
    const out = convert(value, types.resolve(root));
    return { ok: true, value: out, unknownFields: unknown.sort() };
  } catch (err) {
    if (err instanceof ConvertError) return { ok: false, error: err.error };
    throw err;
  }
}
