// The JSON text of objects as the apiserver's encoder writes them (go/json-encode.ts), kept per
// frozen object: the registry presents one frozen object per stored state (to watchers and in
// lists of types without a storage codec), so an object is serialised once however many
// watchers or lists send it. Watch events join texts; a list body is its items' UTF-8 bytes
// copied into one buffer (encoding a 300 KB list text again on every request cost more than
// listing it).
import { goHtmlEscape, marshalGoJson } from '../go/json-encode.ts';

const objectJson = new WeakMap<object, string>();
const objectBytes = new WeakMap<object, Buffer>();

/** marshalGoJson(obj), remembered for a frozen object (frozen objects the registry hands out never change). */
export function jsonOf(obj: object): string {
  let json = objectJson.get(obj);
  if (json === undefined) {
    json = marshalGoJson(obj);
    if (Object.isFrozen(obj)) objectJson.set(obj, json);
  }
  return json;
}

/** jsonOf(obj) as UTF-8, remembered for a frozen object. */
function bytesOf(obj: object): Buffer {
  let bytes = objectBytes.get(obj);
  if (bytes === undefined) {
    bytes = Buffer.from(objectJson.get(obj) ?? marshalGoJson(obj));
    if (Object.isFrozen(obj)) objectBytes.set(obj, bytes);
  }
  return bytes;
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function';

const COMMA = Buffer.from(',');

/**
 * json.NewEncoder(w).Encode(body): the same bytes as encodeGoJson(body) (keys in insertion order,
 * HTML escaped, a trailing newline), with a frozen body's text and the bytes of a list's `items`
 * taken from the per-object caches instead of serialised again. A string for a single object, a
 * fresh buffer for a list.
 */
export function encodeBodyJson(body: unknown): string | Uint8Array {
  if (typeof body === 'object' && body !== null && Object.isFrozen(body)) return jsonOf(body) + '\n';
  if (!isPlainRecord(body) || !Array.isArray(body.items)) return marshalGoJson(body) + '\n';
  const chunks: Buffer[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    // JSON.stringify leaves out members whose value has no JSON text.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    text += `${first ? '' : ','}${goHtmlEscape(JSON.stringify(key))}:`;
    first = false;
    if (key !== 'items') {
      text += marshalGoJson(value);
      continue;
    }
    chunks.push(Buffer.from(text + '['));
    text = '';
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      if (i > 0) chunks.push(COMMA);
      chunks.push(itemBytes(items[i]));
    }
    text = ']';
  }
  chunks.push(Buffer.from(text + '}\n'));
  // Not Buffer.concat: a small result would be a slice of Node's shared pool, and the request log
  // keeping it would keep the whole 8 KiB slab.
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = Buffer.allocUnsafeSlow(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

// An array element without JSON text (undefined, a function) is null, as in JSON.stringify.
const itemBytes = (item: unknown): Buffer =>
  typeof item === 'object' && item !== null ? bytesOf(item) : Buffer.from(marshalGoJson(item) ?? 'null');
