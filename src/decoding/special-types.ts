// The API types with their own UnmarshalJSON, ported for the typed decoder (src/go/typed-json.ts):
// what each accepts, what it stores (MarshalJSON's form: a Quantity in canonical form, a Time in
// UTC at whole seconds) and the error each returns. Sources: apimachinery v0.36
// pkg/api/resource/quantity.go, pkg/util/intstr/intstr.go, pkg/apis/meta/v1/{time,micro_time,
// duration,helpers}.go, pkg/runtime/extension.go; apiextensions-apiserver pkg/apis/apiextensions/v1/marshal.go.
import { Quantity } from '../apis/builtin/quantity.ts';
import { goParseDurationResult } from '../go/duration.ts';
import { goFormatTimeUtc, goParseTime, RFC3339, RFC3339_MICRO } from '../go/time-parse.ts';
import type { SpecialDecoder } from '../go/typed-json.ts';

/** How encoding/json names a JSON value in an UnmarshalTypeError into a string or int32. */
function jsonKind(raw: string, numberText: boolean): string {
  const c = raw[0];
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === 't' || c === 'f') return 'bool';
  if (c === '"') return 'string';
  return numberText ? `number ${raw}` : 'number';
}

/** encoding/json.Unmarshal(raw, &str): the string, or undefined for null (no effect). */
function unmarshalString(raw: string): { value: string | undefined } | { typeError: { value: string; type: string } } {
  if (raw === 'null') return { value: undefined };
  if (raw[0] !== '"') return { typeError: { value: jsonKind(raw, false), type: 'string' } };
  return { value: (JSON.parse(raw) as string).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD') };
}

const quantity: SpecialDecoder = (raw) => {
  // null is the zero Quantity, which marshals as "0".
  if (raw === 'null') return { value: '0' };
  // The quotes are cut off, escapes are not decoded: ParseQuantity sees the raw bytes.
  const text = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  const parsed = Quantity.parse(text.trim());
  if (typeof parsed === 'string') return { error: parsed };
  return { value: parsed.toString() };
};

const intOrString: SpecialDecoder = (raw) => {
  if (raw[0] === '"') {
    const s = unmarshalString(raw);
    return 'value' in s ? { value: s.value } : s;
  }
  // json.Unmarshal(value, &intstr.IntVal): null leaves 0, which marshals as 0.
  if (raw === 'null') return { value: 0 };
  if (!/^-?[0-9]+$/.test(raw)) return { typeError: { value: jsonKind(raw, true), type: 'int32' } };
  const n = BigInt(raw);
  if (n < -(2n ** 31n) || n >= 2n ** 31n) return { typeError: { value: `number ${raw}`, type: 'int32' } };
  return { value: Number(n) };
};

const time = (micro: boolean): SpecialDecoder => (raw) => {
  // null is the zero Time, which marshals as null (or is left out under omitzero).
  if (raw === 'null') return { value: undefined };
  const s = unmarshalString(raw);
  if (!('value' in s)) return s;
  const parsed = goParseTime(micro ? RFC3339_MICRO : RFC3339, s.value ?? '');
  if (!parsed.ok) return { error: parsed.error };
  return { value: goFormatTimeUtc(parsed.epochMs, parsed.nanos, micro) };
};

const duration: SpecialDecoder = (raw) => {
  const s = unmarshalString(raw);
  if (!('value' in s)) return s;
  const text = s.value ?? '';
  // metav1.Duration.UnmarshalJSON returns time.ParseDuration's error as it is.
  const parsed = goParseDurationResult(text);
  return parsed.ok ? { value: text } : { error: parsed.error };
};

/** RawExtension, FieldsV1 and the apiextensions JSON holders keep the JSON as sent (null: nothing). */
const raw: SpecialDecoder = (text) => ({ value: text === 'null' ? undefined : JSON.parse(text) });

export const SPECIAL_DECODERS: Readonly<Record<string, SpecialDecoder>> = {
  'resource.Quantity': quantity,
  'intstr.IntOrString': intOrString,
  'meta.v1.Time': time(false),
  'meta.v1.MicroTime': time(true),
  'meta.v1.Duration': duration,
  'meta.v1.FieldsV1': raw,
  'runtime.RawExtension': raw,
  'apiextensions.v1.JSON': raw,
  'apiextensions.v1.JSONSchemaPropsOrArray': raw,
  'apiextensions.v1.JSONSchemaPropsOrBool': raw,
  'apiextensions.v1.JSONSchemaPropsOrStringArray': raw,
};

/** What MarshalJSON writes for the zero value of each (absent here: null). */
export const SPECIAL_ZERO: Readonly<Record<string, unknown>> = {
  'resource.Quantity': '0',
  'intstr.IntOrString': 0,
  'meta.v1.Duration': '0s',
};
