// go-yaml v3's resolve("", s) (resolve.go, v3.0.4), asked one question: would this text, written
// plain, read back as something other than a string? The encoder double-quotes a `!!str` node whose
// text resolves to another tag (encode.go node: forceQuoting). YAML 1.1 forms v3 does not resolve
// (`yes`, `on`, base-60 `1:20`) read back as strings, so a node holding them stays plain: only
// the stringv path of Go values quotes those (isOldBool, isBase60Float), and gnostic marshals nodes.
import { daysIn } from './time.ts';

// resolveTable: the first byte decides what the text may be.
const hintOf = (c: string | undefined): 'S' | 'D' | 'M' | '.' | undefined => {
  if (c === undefined) return 'M'; // "" (hint 'N' in Go; found in the map as null)
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
};

// resolveMap: the texts that are null, bools and the special floats.
const RESOLVE_MAP = new Set([
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
// strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) syntax: sign (ParseInt only), base prefix, or a
// leading 0 for octal.
const GO_INT_BASE0 = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const MIN_INT64 = -(2n ** 63n);
const MAX_UINT64 = 2n ** 64n - 1n;

/** The value of a base-0 integer literal ("0x1f", "0o17", "017", "0b1", "-12"). */
function goIntBase0(sign: string, body: string): bigint {
  let n: bigint;
  if (/^0[oO]/.test(body)) n = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) n = BigInt('0o' + body.slice(1));
  else n = BigInt(body); // decimal, 0x and 0b as JS reads them
  return sign === '-' ? -n : n;
}

/** ParseInt(s, 0, 64) or, failing that, ParseUint(s, 0, 64) succeeds. */
function isGoInt(s: string): boolean {
  const m = GO_INT_BASE0.exec(s);
  if (!m) return false;
  const n = goIntBase0(m[1]!, m[2]!);
  // A signed text must fit int64 (ParseInt); an unsigned one may reach uint64 (ParseUint).
  if (m[1] === '+') return n < 2n ** 63n;
  return n >= MIN_INT64 && n <= MAX_UINT64;
}

/** strconv.ParseFloat(s, 64) without error on text the float regexp accepted: not past float64's range. */
const parsesAsFloat64 = (s: string): boolean => Number.isFinite(Number(s));

// allowedTimestampFormats ("2006-1-2T15:4:5.999999999Z07:00", the same with `t`, "2006-1-2
// 15:4:5.999999999", "2006-1-2") as time.Parse reads them: 1-2 digit fields, an optional fraction
// after `.` or `,`, and Go's range checks.
const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2})))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?))?$/;

/** parseTimestamp: one of the allowed formats, with a real date and time. */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return false;
  const hour = m[4] ?? m[9];
  const minute = m[5] ?? m[10];
  const second = m[6] ?? m[11];
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59)) return false;
  // Z07:00: hours up to 24, minutes up to 60 (time.parseTimeZone's checks in Parse).
  if (m[7] !== undefined && (Number(m[7]) > 24 || Number(m[8]) > 60)) return false;
  return true;
}

/** resolve("", s) returns a tag other than !!str. */
export function yamlV3ResolvesAsNonString(s: string): boolean {
  const hint = hintOf(s[0]);
  if (hint === undefined) return false;
  if (RESOLVE_MAP.has(s)) return true;
  if (hint === 'M') return false;
  if (hint === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && parsesAsFloat64(s);
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (isGoInt(plain)) return true;
  return YAML_STYLE_FLOAT.test(plain) && parsesAsFloat64(plain);
}
