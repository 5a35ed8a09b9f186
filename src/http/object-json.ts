// The JSON text of objects as the apiserver's encoder writes them (go/json-encode.ts), kept per
// frozen object: the registry presents one frozen object per stored state (to watchers and in
// lists of types without a storage codec), so an object is serialised once however many
// watchers or lists send it, and a list body is its items' texts joined.
import { goHtmlEscape, marshalGoJson } from '../go/json-encode.ts';

const objectJson = new WeakMap<object, string>();

/** marshalGoJson(obj), remembered for a frozen object (frozen objects the registry hands out never change). */
export function jsonOf(obj: object): string {
  let json = objectJson.get(obj);
  if (json === undefined) {
    json = marshalGoJson(obj);
    if (Object.isFrozen(obj)) objectJson.set(obj, json);
  }
  return json;
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function';

/**
 * json.NewEncoder(w).Encode(body): the same bytes as encodeGoJson(body) (keys in insertion order,
 * HTML escaped, a trailing newline), with a frozen body's text and the texts of a list's `items`
 * taken from the per-object cache instead of serialised again.
 */
export function encodeBodyJson(body: unknown): string {
  if (typeof body === 'object' && body !== null && Object.isFrozen(body)) return jsonOf(body) + '\n';
  if (!isPlainRecord(body) || !Array.isArray(body.items)) return marshalGoJson(body) + '\n';
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    // JSON.stringify leaves out members whose value has no JSON text.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const text = key === 'items' ? `[${(value as unknown[]).map(itemJson).join(',')}]` : marshalGoJson(value);
    members.push(`${goHtmlEscape(JSON.stringify(key))}:${text}`);
  }
  return `{${members.join(',')}}\n`;
}

// An array element without JSON text (undefined, a function) is null, as in JSON.stringify.
const itemJson = (item: unknown): string =>
  typeof item === 'object' && item !== null ? jsonOf(item) : (marshalGoJson(item) ?? 'null');
