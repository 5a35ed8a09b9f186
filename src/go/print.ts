// How Go prints the JSON values a printer column finds: jsonpath PrintResults (fmt.Fprint for
// scalars, encoding/json for maps and slices) and fmt's %v for float64.
import { goHtmlEscape } from './json-encode.ts';

/** jsonpath PrintResults of one value: the text a `string` printer column shows. */
export function printJsonPathValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>'; // template.PrintableValue of an invalid value
  if (typeof v === 'object') return goJsonMarshal(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatV(v);
  return String(v);
}

/** fmt's %v of a float64: strconv.FormatFloat(f, 'g', -1, 64), e.g. `0.5`, `1.5e-05`, `1.2345675e+06`. */
export function goFloatV(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // toExponential() gives the shortest round-trip digits, as strconv's shortest mode does.
  const [mantissa, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // In shortest mode strconv picks %e when exp < -4 || exp >= 6 (ftoa.go: "use precision 6").
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const abs = Math.abs(exp);
    return `${mantissa}e${sign}${abs < 10 ? '0' : ''}${abs}`;
  }
  const negative = f < 0;
  const digits = mantissa.replace('-', '').replace('.', '');
  let out: string;
  if (exp >= 0) {
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = frac ? `${intPart}.${frac}` : intPart;
  } else {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return negative ? `-${out}` : out;
}

/** encoding/json Marshal: sorted map keys, HTML-safe string escaping, Go's float format. */
export function goJsonMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return JSON.stringify(v); // same thresholds and exponent form as Go
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJsonMarshal).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort(byUtf8);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJsonMarshal(obj[k])}`).join(',')}}`;
}

function goJsonString(s: string): string {
  return goHtmlEscape(JSON.stringify(s));
}

/** Go sorts map keys by bytes; UTF-16 order differs only around surrogates. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
