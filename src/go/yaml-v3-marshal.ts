// go-yaml v3's Marshal of JSON values in block style with its default 4-space indent, the form
// gnostic stores in an OpenAPI v2 `Any` (compiler.Marshal clears the node styles, then marshals):
// `key: value` lines, nested mappings and sequences indented by 4, a mapping inside a sequence
// item continued under its first key, `{}`/`[]` for empty ones, and strings quoted (double quotes)
// where a plain scalar would read as something else.

const INDENT = '    ';
// Strings YAML 1.1/1.2 resolvers would read as null, bools or numbers (yaml.v3 quotes them, the
// 1.1 booleans too: resolve.go isOldBool).
const NON_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?|0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+)$/;
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') return String(v);
  const s = String(v);
  const plain = s !== '' && !NON_STRING.test(s) && !INDICATOR_START.test(s) && !/^\s|\s$/.test(s) && !/: |:$| #|[\u0000-\u001f\u007f]/.test(s);
  return plain ? s : JSON.stringify(s);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmptyCollection = (v: unknown): boolean => (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);
const inline = (v: unknown): string => (Array.isArray(v) ? '[]' : isMap(v) ? '{}' : scalar(v));

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (!isEmptyCollection(item) && (isMap(item) || Array.isArray(item))) {
        const [first, ...rest] = lines(item, indent + '  ');
        return [`${indent}- ${first!.trimStart()}`, ...rest];
      }
      return [`${indent}- ${inline(item)}`];
    });
  }
  if (isMap(v)) {
    return Object.entries(v).flatMap(([k, item]) => {
      if (!isEmptyCollection(item) && (isMap(item) || Array.isArray(item))) return [`${indent}${scalar(k)}:`, ...lines(item, indent + INDENT)];
      return [`${indent}${scalar(k)}: ${inline(item)}`];
    });
  }
  return [indent + scalar(v)];
}

/** yaml.Marshal(v) of a JSON value, newline-terminated. */
export function marshalYamlV3(value: unknown): string {
  if (isEmptyCollection(value) || !(isMap(value) || Array.isArray(value))) return inline(value) + '\n';
  return lines(value, '').join('\n') + '\n';
}
