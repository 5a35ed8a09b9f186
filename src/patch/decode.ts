// How patch.go decodes the request body before applying it. With fieldValidation Strict or Warn
// (Warn is the default), sigs.k8s.io/json UnmarshalStrict runs first: its errors are 400s and its
// strict findings (duplicate / unknown fields) come back as warnings or a Strict 422. With Ignore,
// only the library's own decoding runs, with its own texts.
import { goDuplicateFieldError, goJsonValueKind, parseGoJson } from '../go/json.ts';
import { goQuote } from '../errors/go-format.ts';
import { decodePreserveInts, type GoValue } from './go-value.ts';

export type DecodeResult<T> = { ok: true; value: T; strictErrors: string[] } | { ok: false; error: string };

/** sigs.k8s.io/json keeps at most this many strict errors. */
const MAX_STRICT_ERRORS = 100;

/**
 * kjson.UnmarshalStrict / UnmarshalCaseSensitivePreserveInts into map[string]interface{}
 * (merge patch's strict pre-check, and the strategic merge patch itself).
 */
export function decodeIntoMap(body: Uint8Array, strict: boolean): DecodeResult<GoValue> {
  const parsed = parseGoJson(body, { trackDuplicates: strict });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  if (parsed.value !== null && (typeof parsed.value !== 'object' || Array.isArray(parsed.value))) {
    return { ok: false, error: `json: cannot unmarshal ${goJsonValueKind(parsed.value)} into Go value of type map[string]interface {}` };
  }
  const { value, badNumber } = decodePreserveInts(body);
  if (badNumber) return { ok: false, error: `json: cannot unmarshal ${badNumber} into Go value of type float64` };
  return { ok: true, value, strictErrors: parsed.duplicates.slice(0, MAX_STRICT_ERRORS).map(goDuplicateFieldError) };
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * patch.go's strict pre-decode of a JSON patch into []jsonPatchOp{Op, Path, From string;
 * Value interface{}}: type errors, then `unknown field "[0].x"` / `duplicate field "[0].op"`
 * (prefixed "json patch " by the handler).
 */
export function decodeJsonPatchStrict(body: Uint8Array): DecodeResult<null> {
  const parsed = parseGoJson(body, { trackDuplicates: true });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const ops = parsed.value;
  if (ops === null) return { ok: true, value: null, strictErrors: [] };
  if (!Array.isArray(ops)) return { ok: false, error: `json: cannot unmarshal ${goJsonValueKind(ops)} into Go value of type []handlers.jsonPatchOp` };
  const strictErrors: string[] = [];
  let typeError: string | undefined;
  ops.forEach((op: unknown, i) => {
    if (op === null) return;
    if (typeof op !== 'object' || Array.isArray(op)) {
      typeError ??= `json: cannot unmarshal ${goJsonValueKind(op)} into Go value of type handlers.jsonPatchOp`;
      return;
    }
    for (const [key, v] of Object.entries(op as Record<string, unknown>)) {
      if (!OP_FIELDS.has(key)) {
        strictErrors.push(`unknown field ${goQuote(`[${i}].${key}`)}`);
      } else if (key !== 'value' && v !== null && typeof v !== 'string') {
        typeError ??= `json: cannot unmarshal ${goJsonValueKind(v)} into Go struct field jsonPatchOp.${key} of type string`;
      }
    }
    for (const path of parsed.duplicates) if (path.startsWith(`[${i}]`)) strictErrors.push(goDuplicateFieldError(path));
  });
  if (typeError === undefined) {
    const { badNumber } = decodePreserveInts(body);
    if (badNumber) typeError = `json: cannot unmarshal ${badNumber} into Go struct field jsonPatchOp.value of type float64`;
  }
  if (typeError !== undefined) return { ok: false, error: typeError };
  return { ok: true, value: null, strictErrors: [...new Set(strictErrors)].slice(0, MAX_STRICT_ERRORS) };
}
