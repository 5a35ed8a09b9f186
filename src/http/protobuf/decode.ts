// Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`), as
// kubectl's typed clients send them, decoded into the JSON object a JSON body would have given.
//
// Envelope (k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go): the 4 bytes
// `k8s\x00`, then a proto2 runtime.Unknown (pkg/runtime/generated.proto):
//   Unknown { TypeMeta typeMeta = 1; bytes raw = 2; string contentEncoding = 3; string contentType = 4 }
//   TypeMeta { string apiVersion = 1; string kind = 2 }
// `raw` is the object's own message (core/v1 ConfigMap, ...), chosen by apiVersion and kind;
// contentEncoding/contentType are ignored, as the Go serializer ignores them on decode.
//
// The JSON is what encoding/json prints for the Go struct the apiserver (1.36) would decode:
// - keys in Go declaration order, `kind`/`apiVersion` first (TypeMeta);
// - `omitempty` drops "", 0, false, nil slices/maps; struct-typed fields are always written
//   (`"resources": {}`, `"status": {}`), except `omitzero` ones (metadata.creationTimestamp,
//   whose zero value is therefore absent rather than kubectl 1.32's `null`);
// - pointer fields appear iff they were on the wire, so `immutable: false` survives;
// - non-omitempty slices/maps that got no entries are `null` (`"rules": null`), as Go prints nil;
// - bytes are base64 (StdEncoding), int64 plain numbers (exact up to 2^53), Time an RFC 3339
//   UTC string with whole seconds (metav1.Time drops nanos on proto decode), Quantity its string
//   as sent (not re-canonicalised), IntOrString a number or a string, FieldsV1 its embedded JSON.
// Unknown fields are skipped; wrong wire types, truncation and bad lengths throw.

import { goQuote } from '../../errors/go-format.ts';
import { decodeGoUtf8 } from '../../go/utf8.ts';
import type { FieldSpec, MessageSpec, SpecialKind } from './schema.ts';
import { messageForKind, messages } from './schemas/index.ts';
import { ProtobufDecodeError, WIRE_BYTES, WIRE_END_GROUP, WIRE_VARINT, WireReader } from './wire.ts';

export { ProtobufDecodeError } from './wire.ts';
export type { ProtobufDecodeErrorReason } from './wire.ts';
export { decodableKinds } from './schemas/index.ts';


/** protoEncodingPrefix: "k8s" and encoding style 0 (a runtime.Unknown follows). */
export const KUBERNETES_PROTOBUF_MAGIC: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);


export interface KubernetesProtobufEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** Checks the magic prefix and reads the runtime.Unknown wrapper, without decoding `raw`. */
export function decodeKubernetesProtobufEnvelope(bytes: Uint8Array): KubernetesProtobufEnvelope {
  const prefix = KUBERNETES_PROTOBUF_MAGIC;
  if (bytes.length === 0) throw new ProtobufDecodeError('empty data');
  if (bytes.length < prefix.length || prefix.some((b, i) => bytes[i] !== b)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${prefix.join(' ')}]`);
  }
  if (bytes.length === prefix.length) throw new ProtobufDecodeError('empty body');
  const out: KubernetesProtobufEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const r = new WireReader(bytes, prefix.length);
  while (!r.done) {
    const { field, wireType, key } = r.tag();
    checkKey('Unknown', field, wireType, key);
    if (field > 4) {
      r.skip(wireType);
      continue;
    }
    if (wireType !== WIRE_BYTES) throw wrongWireType(wireType, ['TypeMeta', 'Raw', 'ContentEncoding', 'ContentType'][field - 1]!);
    const value = r.bytes();
    if (field === 1) {
      // A repeated embedded message merges, so later apiVersion/kind values win.
      const t = new WireReader(value);
      while (!t.done) {
        const k = t.tag();
        checkKey('TypeMeta', k.field, k.wireType, k.key);
        if (k.field !== 1 && k.field !== 2) {
          t.skip(k.wireType);
          continue;
        }
        if (k.wireType !== WIRE_BYTES) throw wrongWireType(k.wireType, k.field === 1 ? 'APIVersion' : 'Kind');
        const s = decodeGoUtf8(t.bytes());
        if (k.field === 1) out.apiVersion = s;
        else out.kind = s;
      }
    } else if (field === 2) out.raw = value;
    else if (field === 3) out.contentEncoding = decodeGoUtf8(value);
    else out.contentType = decodeGoUtf8(value);
  }
  return out;
}

export interface DecodedKubernetesObject {
  apiVersion: string;
  kind: string;
  /** The object as JSON would carry it, with `kind` and `apiVersion` set. */
  object: Record<string, unknown>;
}

/**
 * Decodes a Kubernetes protobuf body. `defaults` (the endpoint's group version and kind) fill an
 * envelope that lacks them, as the serializer's copyKindDefaults does.
 */
export function decodeKubernetesProtobuf(bytes: Uint8Array, defaults?: { apiVersion?: string; kind?: string }): DecodedKubernetesObject {
  const env = decodeKubernetesProtobufEnvelope(bytes);
  let { group, version } = parseGroupVersion(env.apiVersion);
  let kind = env.kind;
  const typeMetaText = `runtime.TypeMeta{APIVersion:${goQuote(env.apiVersion)}, Kind:${goQuote(env.kind)}}`;
  if (defaults) {
    if (!kind) kind = defaults.kind ?? '';
    const d = parseGroupVersion(defaults.apiVersion ?? '');
    if (!version && d.version) ({ group, version } = d);
  }
  if (!kind) throw new ProtobufDecodeError(`Object 'Kind' is missing in '${typeMetaText}'`, 'missingKind');
  if (!version) throw new ProtobufDecodeError(`Object 'apiVersion' is missing in '${typeMetaText}'`, 'missingKind');
  const apiVersion = group ? `${group}/${version}` : version;
  const name = messageForKind(apiVersion, kind);
  if (!name) throw new ProtobufDecodeError(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in kubefake's protobuf decoder`, 'unknownKind');
  const { json } = decodeMessage(messages.get(name), env.raw, 0);
  return { apiVersion, kind, object: { kind, apiVersion, ...json } };
}

/**
 * Decodes one message (no envelope) by registry name, e.g. `meta.v1.DeleteOptions`; for callers that
 * already know the type.
 */
export function decodeProtobufMessage(name: string, bytes: Uint8Array): Record<string, unknown> {
  return decodeMessage(messages.get(name), bytes, 0).json;
}

/** schema.ParseGroupVersion, treating its error case (several slashes) as empty, as FromAPIVersionAndKind does. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

function checkKey(goName: string, field: number, wireType: number, key: number): void {
  if (wireType === WIRE_END_GROUP) throw new ProtobufDecodeError(`proto: ${goName}: wiretype end group for non-group`);
  if (field <= 0) throw new ProtobufDecodeError(`proto: ${goName}: illegal tag ${field} (wire type ${key})`);
}

function wrongWireType(wireType: number, fieldName: string): ProtobufDecodeError {
  return new ProtobufDecodeError(`proto: wrong wireType = ${wireType} for field ${fieldName}`);
}

/** Far deeper than any built-in type nests; only a guard against recursive schemas. */
const MAX_DEPTH = 64;

const EMPTY = new Uint8Array(0);

/** A decoded message: its JSON and whether the Go struct is all zero values (for omitzero). */
interface Decoded {
  json: Record<string, unknown>;
  zero: boolean;
}

// What a field collected from the wire before JSON is built: scalars keep the last value,
// singular messages their chunks (proto merges repeated occurrences, which is what decoding
// their concatenation does), lists every element, maps the last value per key.
type Scalar = string | number | boolean | Uint8Array;
type Slot = { kind: 'one'; value: Scalar } | { kind: 'chunks'; chunks: Uint8Array[] } | { kind: 'list'; items: Scalar[] } | { kind: 'map'; entries: Map<string, Scalar | undefined> };

function isLengthDelimited(f: FieldSpec): boolean {
  return f.kind !== 'bool' && f.kind !== 'int32' && f.kind !== 'int64';
}

function readScalar(r: WireReader, f: FieldSpec): Scalar {
  switch (f.kind) {
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    case 'string':
      return decodeGoUtf8(r.bytes());
    default:
      // bytes and every message kind: the payload itself
      return r.bytes();
  }
}

function decodeMessage(spec: MessageSpec, buf: Uint8Array, depth: number): Decoded {
  if (depth > MAX_DEPTH) throw new ProtobufDecodeError('proto: message nesting too deep');
  const slots = new Map<FieldSpec, Slot>();
  const r = new WireReader(buf);
  while (!r.done) {
    const { field, wireType, key } = r.tag();
    checkKey(spec.goName, field, wireType, key);
    const f = spec.byNumber.get(field);
    if (!f) {
      r.skip(wireType);
      continue;
    }
    const expected = isLengthDelimited(f) || f.shape === 'map' ? WIRE_BYTES : WIRE_VARINT;
    const packed = f.shape === 'list' && expected === WIRE_VARINT && wireType === WIRE_BYTES;
    if (wireType !== expected && !packed) throw wrongWireType(wireType, f.json || spec.goName);
    const slot = slots.get(f);
    switch (f.shape) {
      case 'map': {
        const [k, v] = readMapEntry(r.bytes(), f);
        if (slot?.kind === 'map') slot.entries.set(k, v);
        else slots.set(f, { kind: 'map', entries: new Map([[k, v]]) });
        break;
      }
      case 'list': {
        const items = slot?.kind === 'list' ? slot.items : [];
        if (packed) {
          const payload = r.bytes();
          const p = new WireReader(payload);
          while (!p.done) items.push(readScalar(p, f));
        } else items.push(readScalar(r, f));
        // gogo leaves a slice nil when a packed run had no elements
        if (items.length && slot?.kind !== 'list') slots.set(f, { kind: 'list', items });
        break;
      }
      default:
        if (f.kind === 'message' || f.kind === 'IntOrString' || f.kind === 'Quantity' || f.kind === 'FieldsV1') {
          const chunk = r.bytes();
          if (slot?.kind === 'chunks') slot.chunks.push(chunk);
          else slots.set(f, { kind: 'chunks', chunks: [chunk] });
        } else {
          // Time's custom Unmarshal replaces rather than merges, so it is kept like a scalar.
          slots.set(f, { kind: 'one', value: readScalar(r, f) });
        }
    }
  }

  const json: Record<string, unknown> = {};
  let zero = true;
  const inlined: Record<string, unknown>[] = [];
  for (const f of spec.fields) {
    const slot = slots.get(f);
    if (f.shape === 'value') {
      if (!emitValue(json, inlined, f, slot, depth)) zero = false;
      continue;
    }
    // A present pointer, slice or map is non-nil, hence non-zero.
    if (slot) zero = false;
    switch (f.shape) {
      case 'pointer':
        if (slot) json[f.json] = valueJson(f, slotValue(slot), depth);
        else if (!f.omitEmpty) json[f.json] = null;
        break;
      case 'list':
        if (slot?.kind === 'list') json[f.json] = slot.items.map((item) => valueJson(f, item, depth));
        else if (!f.omitEmpty) json[f.json] = null;
        break;
      case 'map':
        if (slot?.kind === 'map') {
          const keys = [...slot.entries.keys()].sort();
          // fromEntries defines own properties, so a "__proto__" key stays data
          json[f.json] = Object.fromEntries(keys.map((k) => [k, valueJson(f, slot.entries.get(k) ?? zeroScalar(f), depth)]));
        } else if (!f.omitEmpty) json[f.json] = null;
        break;
    }
  }
  // Embedded structs' keys go where Go puts them, unless the outer struct declares the same key.
  if (inlined.length) return { json: mergeInline(spec, json, inlined), zero };
  return { json, zero };
}

/** The Go zero value of f's kind (an absent plain field or map value); empty bytes for structs. */
function zeroScalar(f: FieldSpec): Scalar {
  switch (f.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
      return 0;
    default:
      return EMPTY;
  }
}

function readMapEntry(entry: Uint8Array, f: FieldSpec): [string, Scalar | undefined] {
  const r = new WireReader(entry);
  let key = '';
  let value: Scalar | undefined;
  while (!r.done) {
    const t = r.tag();
    checkKey(`${f.json} entry`, t.field, t.wireType, t.key);
    if (t.field === 1) {
      if (t.wireType !== WIRE_BYTES) throw wrongWireType(t.wireType, `${f.json} key`);
      key = decodeGoUtf8(r.bytes());
    } else if (t.field === 2) {
      const expected = isLengthDelimited(f) ? WIRE_BYTES : WIRE_VARINT;
      if (t.wireType !== expected) throw wrongWireType(t.wireType, `${f.json} value`);
      value = readScalar(r, f);
    } else r.skip(t.wireType);
  }
  return [key, value];
}

function slotValue(slot: Slot): Scalar {
  if (slot.kind === 'one') return slot.value;
  if (slot.kind === 'chunks') return concat(slot.chunks);
  throw new Error('protobuf: slot shape mismatch');
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  return Buffer.concat(chunks);
}

/** The JSON of one (non-absent) value of field f: a scalar, an element, or a map value. */
function valueJson(f: FieldSpec, v: Scalar, depth: number): unknown {
  if (!(v instanceof Uint8Array)) return v;
  if (f.kind === 'bytes') return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  return decodeKind(f, v, depth).json;
}

function decodeKind(f: FieldSpec, bytes: Uint8Array, depth: number): { json: unknown; zero: boolean } {
  if (f.kind !== 'message') return decodeSpecial(f.kind as SpecialKind, bytes);
  const spec = messages.get(f.message!);
  const decoded = decodeMessage(spec, bytes, depth + 1);
  // A named slice (`type ExtraValue []string`) travels as `{ repeated items = 1 }` and is the
  // slice itself in Go: nil (JSON null) when no item arrived.
  if (spec.sliceWrapper) return { json: decoded.json.items, zero: decoded.json.items === null };
  return decoded;
}

/** Writes a plain (non-pointer, non-slice) field the way encoding/json would; returns whether it is Go-zero. */
function emitValue(json: Record<string, unknown>, inlined: Record<string, unknown>[], f: FieldSpec, slot: Slot | undefined, depth: number): boolean {
  switch (f.kind) {
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64': {
      const v = slot?.kind === 'one' ? slot.value : zeroScalar(f);
      const zero = isZeroScalar(v);
      if (!(f.omitEmpty && zero)) json[f.json] = v;
      return zero;
    }
    case 'bytes': {
      // []byte: nil when absent; present (even empty) is non-nil
      if (!slot) {
        if (!f.omitEmpty) json[f.json] = null;
        return true;
      }
      const v = slotValue(slot) as Uint8Array;
      if (!(f.omitEmpty && v.length === 0)) json[f.json] = valueJson(f, v, depth);
      return false;
    }
    default: {
      // Struct-typed: omitempty never drops a struct in encoding/json; omitzero does.
      const decoded = decodeKind(f, slot ? (slotValue(slot) as Uint8Array) : EMPTY, depth);
      if (f.inline) inlined.push(decoded.json as Record<string, unknown>);
      else if (!(f.omitZero && decoded.zero)) json[f.json] = decoded.json;
      return decoded.zero;
    }
  }
}

function isZeroScalar(v: Scalar): boolean {
  return v === '' || v === 0 || v === false || (v instanceof Uint8Array && v.length === 0);
}

function mergeInline(spec: MessageSpec, own: Record<string, unknown>, inlined: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let next = 0;
  for (const f of spec.fields) {
    if (f.inline) {
      const part = inlined[next++];
      if (part) for (const [k, v] of Object.entries(part)) if (!Object.hasOwn(own, k) && !Object.hasOwn(out, k)) out[k] = v;
    } else if (Object.hasOwn(own, f.json)) out[f.json] = own[f.json];
  }
  return out;
}

// ---- apimachinery types with their own proto and JSON forms ----

/** time.Time{}.Unix(): metav1.Time is zero (JSON null) at this instant. */
const GO_ZERO_TIME_UNIX = -62135596800;

function decodeSpecial(kind: SpecialKind, bytes: Uint8Array): { json: unknown; zero: boolean } {
  switch (kind) {
    case 'Time':
      return decodeTime(bytes);
    case 'MicroTime':
      return decodeMicroTime(bytes);
    case 'RawExtension':
      return decodeRawExtension(bytes);
    case 'Quantity':
      return decodeQuantity(bytes);
    case 'IntOrString':
      return decodeIntOrString(bytes);
    case 'FieldsV1':
      return decodeFieldsV1(bytes);
  }
}

/**
 * metav1.Time: empty bytes are the zero time; otherwise a Timestamp {int64 seconds = 1;
 * int32 nanos = 2}, of which Time.Unmarshal keeps only the seconds.
 */
function decodeTime(bytes: Uint8Array): { json: unknown; zero: boolean } {
  if (bytes.length === 0) return { json: null, zero: true };
  let seconds = 0;
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('Timestamp', t.field, t.wireType, t.key);
    if (t.field === 1 || t.field === 2) {
      if (t.wireType !== WIRE_VARINT) throw wrongWireType(t.wireType, t.field === 1 ? 'Seconds' : 'Nanos');
      if (t.field === 1) seconds = r.int64();
      else r.int32();
    } else r.skip(t.wireType);
  }
  if (seconds === GO_ZERO_TIME_UNIX) return { json: null, zero: true };
  return { json: formatRfc3339(seconds), zero: false };
}

/**
 * metav1.MicroTime: the same Timestamp, of which MicroTime.Unmarshal keeps the nanoseconds too;
 * MarshalJSON prints RFC3339Micro (`2006-01-02T15:04:05.000000Z07:00`) in UTC, truncating to
 * microseconds; the zero time is null.
 */
function decodeMicroTime(bytes: Uint8Array): { json: unknown; zero: boolean } {
  if (bytes.length === 0) return { json: null, zero: true };
  let seconds = 0;
  let nanos = 0;
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('Timestamp', t.field, t.wireType, t.key);
    if (t.field === 1 || t.field === 2) {
      if (t.wireType !== WIRE_VARINT) throw wrongWireType(t.wireType, t.field === 1 ? 'Seconds' : 'Nanos');
      if (t.field === 1) seconds = r.int64();
      else nanos = r.int32();
    } else r.skip(t.wireType);
  }
  // time.Unix normalises nanoseconds outside [0, 1e9) into the seconds.
  seconds += Math.floor(nanos / 1e9);
  nanos = ((nanos % 1e9) + 1e9) % 1e9;
  if (seconds === GO_ZERO_TIME_UNIX && nanos === 0) return { json: null, zero: true };
  const micros = String(Math.floor(nanos / 1000)).padStart(6, '0');
  return { json: formatRfc3339(seconds).replace(/Z$/, `.${micros}Z`), zero: false };
}

/** time.RFC3339 in UTC at whole seconds, as metav1.Time.MarshalJSON prints it. */
function formatRfc3339(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw new ProtobufDecodeError(`proto: Time seconds ${seconds} out of range`);
  const year = d.getUTCFullYear();
  const y = (year < 0 ? '-' : '') + String(Math.abs(year)).padStart(4, '0');
  const p = (n: number) => String(n).padStart(2, '0');
  return `${y}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}Z`;
}

/**
 * runtime.RawExtension: {bytes raw = 1}; MarshalJSON embeds Raw verbatim (null when nil), so the
 * bytes must be JSON for the object to be served back.
 */
function decodeRawExtension(bytes: Uint8Array): { json: unknown; zero: boolean } {
  let raw: Uint8Array | undefined;
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('RawExtension', t.field, t.wireType, t.key);
    if (t.field !== 1) {
      r.skip(t.wireType);
      continue;
    }
    if (t.wireType !== WIRE_BYTES) throw wrongWireType(t.wireType, 'Raw');
    raw = r.bytes();
  }
  if (!raw) return { json: null, zero: true };
  try {
    return { json: JSON.parse(decodeGoUtf8(raw)), zero: false };
  } catch {
    throw new ProtobufDecodeError('json: error calling MarshalJSON for type runtime.RawExtension: invalid JSON in raw');
  }
}

/** resource.Quantity: {string string = 1}; its Unmarshal parses the string (ParseQuantity). */
const QUANTITY_SYNTAX = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

function decodeQuantity(bytes: Uint8Array): { json: unknown; zero: boolean } {
  let text: string | undefined;
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('Quantity', t.field, t.wireType, t.key);
    if (t.field !== 1) {
      r.skip(t.wireType);
      continue;
    }
    if (t.wireType !== WIRE_BYTES) throw wrongWireType(t.wireType, 'String_');
    text = decodeGoUtf8(r.bytes());
    if (!QUANTITY_SYNTAX.test(text)) throw new ProtobufDecodeError(`quantities must match the regular expression '${QUANTITY_SYNTAX.source}'`);
  }
  // A Quantity without its string is the zero quantity, which marshals as "0".
  return text === undefined ? { json: '0', zero: true } : { json: text, zero: false };
}

/** intstr.IntOrString: {int64 type = 1; int32 intVal = 2; string strVal = 3}. */
function decodeIntOrString(bytes: Uint8Array): { json: unknown; zero: boolean } {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('IntOrString', t.field, t.wireType, t.key);
    const expected = t.field === 3 ? WIRE_BYTES : WIRE_VARINT;
    if (t.field < 1 || t.field > 3) {
      r.skip(t.wireType);
      continue;
    }
    if (t.wireType !== expected) throw wrongWireType(t.wireType, ['Type', 'IntVal', 'StrVal'][t.field - 1]!);
    if (t.field === 1) type = r.int64();
    else if (t.field === 2) intVal = r.int32();
    else strVal = decodeGoUtf8(r.bytes());
  }
  const zero = type === 0 && intVal === 0 && strVal === '';
  if (type === 0) return { json: intVal, zero };
  if (type === 1) return { json: strVal, zero };
  // IntOrString.MarshalJSON fails for any other type.
  throw new ProtobufDecodeError('impossible IntOrString.Type');
}

/** metav1.FieldsV1: {bytes Raw = 1}, holding JSON that MarshalJSON embeds verbatim (null if empty). */
function decodeFieldsV1(bytes: Uint8Array): { json: unknown; zero: boolean } {
  let raw: Uint8Array | undefined;
  const r = new WireReader(bytes);
  while (!r.done) {
    const t = r.tag();
    checkKey('FieldsV1', t.field, t.wireType, t.key);
    if (t.field !== 1) {
      r.skip(t.wireType);
      continue;
    }
    if (t.wireType !== WIRE_BYTES) throw wrongWireType(t.wireType, 'Raw');
    raw = r.bytes();
  }
  if (!raw || raw.length === 0) return { json: null, zero: raw === undefined };
  try {
    return { json: JSON.parse(decodeGoUtf8(raw)), zero: false };
  } catch {
    throw new ProtobufDecodeError('json: error calling MarshalJSON for type *v1.FieldsV1: invalid JSON in fieldsV1');
  }
}
