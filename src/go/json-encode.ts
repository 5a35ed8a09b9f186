// Go's encoding/json output, byte for byte, for the values kubefake serialises: what the
// apiserver's JSON serializer writes (apimachinery runtime/serializer/json: json.NewEncoder(w).Encode)
// and what json.Marshal hashes (the aggregated discovery ETag). Both escape HTML: `<`, `>` and `&`
// become \u003c, \u003e, \u0026, as do U+2028 and U+2029 (encoding/json appendString). Control
// characters already match JSON.stringify (\b \f \n \r \t, else \u00XX in lowercase hex, as Go 1.22+).
// Object keys keep insertion order: typed Go structs and unstructured maps are ordered by their
// callers (sorted keys for unstructured objects) before they get here.

const GO_HTML_ESCAPES = /[<>&\u2028\u2029]/g;
const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** encoding/json's HTML escaping of JSON text (these characters can only stand inside its strings). */
export const goHtmlEscape = (json: string): string => json.replace(GO_HTML_ESCAPES, escapeChar);

/** json.Marshal(v), keys in insertion order: no trailing newline. */
export function marshalGoJson(value: unknown): string {
  return goHtmlEscape(JSON.stringify(value));
}

/** json.NewEncoder(w).Encode(v): Marshal's bytes and a newline. */
export function encodeGoJson(value: unknown): string {
  return marshalGoJson(value) + '\n';
}
