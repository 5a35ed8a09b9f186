// The JSON text of objects as the apiserver's encoder writes them (go/json-encode.ts), kept per
// frozen object: the registry presents one frozen object per stored state (to watchers and in
// lists of types without a storage codec), so an object is serialised once however many
// watchers or lists send it. Watch events join texts; a list body is its items' texts written
// as UTF-8 into one buffer of the size their kept byte lengths add up to (joining a 300 KB list
// text, then measuring and encoding it, cost more than listing it).
import { goHtmlEscape, marshalGoJson } from '../go/json-encode.ts';

interface Json {
  text: string;
  /** The text's UTF-8 length. */
  byteLength: number;
}

const objectJson = new WeakMap<object, Json>();

function cachedJson(obj: object): Json {
  let json = objectJson.get(obj);
  if (json === undefined) {
    const text = marshalGoJson(obj);
    json = { text, byteLength: Buffer.byteLength(text) };
    if (Object.isFrozen(obj)) objectJson.set(obj, json);
  }
  return json;
}

/** marshalGoJson(obj), remembered for a frozen object (frozen objects the registry hands out never change). */
export function jsonOf(obj: object): string {
  return cachedJson(obj).text;
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function';

// An array element without JSON text (undefined, a function) is null, as in JSON.stringify.
function itemJson(item: unknown): Json {
  if (typeof item === 'object' && item !== null) return cachedJson(item);
  const text = marshalGoJson(item) ?? 'null';
  return { text, byteLength: Buffer.byteLength(text) };
}

/**
 * json.NewEncoder(w).Encode(body): the same bytes as encodeGoJson(body) (keys in insertion order,
 * HTML escaped, a trailing newline), with a frozen body's text and the texts of a list's `items`
 * taken from the per-object cache instead of serialised again. A string for a single object, a
 * buffer of its own for a list.
 */
export function encodeBodyJson(body: unknown): string | Uint8Array {
  if (typeof body === 'object' && body !== null && Object.isFrozen(body)) return jsonOf(body) + '\n';
  if (!isPlainRecord(body) || !Array.isArray(body.items)) return marshalGoJson(body) + '\n';
  // The members before the items, the items, and the members after them.
  let head = '{';
  let tail = '';
  let items: Json[] = [];
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    // JSON.stringify leaves out members whose value has no JSON text.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const member = `${first ? '' : ','}${goHtmlEscape(JSON.stringify(key))}:`;
    first = false;
    if (key === 'items') {
      head += member + '[';
      items = (value as unknown[]).map(itemJson);
      tail = ']';
    } else if (tail === '') head += member + marshalGoJson(value);
    else tail += member + marshalGoJson(value);
  }
  tail += '}\n';
  // One buffer of its own (not Buffer.concat's slice of Node's shared pool, whose 8 KiB slab the
  // request log would keep for a small list).
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
  for (const item of items) length += item.byteLength;
  const out = Buffer.allocUnsafeSlow(length);
  let offset = out.write(head, 0);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[offset++] = 0x2c; // ','
    offset += out.write(items[i]!.text, offset);
  }
  out.write(tail, offset);
  return out;
}
