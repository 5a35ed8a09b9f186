// resource.Quantity (apimachinery pkg/api/resource, v0.36): a port of its parser and of the
// arithmetic the CEL quantity library exposes, down to the representation — an int64 amount with a
// base-10 scale, or an arbitrary-precision inf.Dec once a value does not fit — because
// observable results depend on it (`quantity("1000m").isInteger()` is false, AsApproximateFloat64
// multiplies the unscaled value by a power of ten). The exact fractions (`Rational`) used for a
// Pod's QoS class are derived from the same parser.

/** A quantity as an exact fraction num/den (den > 0). */
export interface Rational {
  num: bigint;
  den: bigint;
}

/** The regular expression the parse error quotes (splitREString). */
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
/** maxInt64Factors: the most decimal digits an int64 amount is built from. */
const MAX_INT64_FACTORS = 18;
const NANO = -9;

const fitsInt64 = (v: bigint): boolean => v >= MIN_INT64 && v <= MAX_INT64;
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** int64Amount: value * 10^scale with value in int64 range. */
interface Int64Amount {
  value: bigint;
  scale: number;
}

/**
 * inf.Dec: unscaled * 10^-scale. Mutable, and shared between copies of a Quantity as the Go
 * pointer is (`copy := *q` keeps pointing at the same Dec).
 */
export interface Dec {
  unscaled: bigint;
  scale: number;
}

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
type Suffix = { base: 2 | 10; exponent: number; format: QuantityFormat };

const DECIMAL_SUFFIXES: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXPONENT: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([k, v]) => [v, k]));
const BINARY_SUFFIX_BY_EXPONENT: Record<number, string> = { 0: '', ...Object.fromEntries(Object.entries(BINARY_SUFFIXES).map(([k, v]) => [v, k])) };

/** quantitySuffixer.interpret. */
function interpretSuffix(s: string): Suffix | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, s)) return { base: 10, exponent: DECIMAL_SUFFIXES[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, s)) return { base: 2, exponent: BINARY_SUFFIXES[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    const parsed = parseGoInt64(s.slice(1));
    if (parsed === undefined) return undefined;
    // Go converts the int64 with int32(parsed): it wraps.
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** strconv.ParseInt(s, 10, 64). */
function parseGoInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return fitsInt64(v) ? v : undefined;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const SUFFIX_CHARS = 'eEinumkKMGTP';

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: sign, numerator (leading zeros stripped), denominator, suffix. */
function scanQuantity(str: string): Scanned | string {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') pos++;
  }
  for (;;) {
    if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str[pos] !== '0') break;
    pos++;
  }
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  let num = str.slice(pos, i);
  pos = i;
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    if (i >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, i);
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  i = pos;
  while (i < end && SUFFIX_CHARS.includes(str[i]!)) i++;
  if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  for (i = pos; i < end; i++) if (!isDigit(str[i])) return ERR_FORMAT_WRONG;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** inf.Dec SetString over the numeric part: an optional sign, digits with at most one point. */
function decFromString(s: string): Dec | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(s);
  if (!m || (m[2]! + (m[3] ?? '')).length === 0) return undefined;
  const digits = m[2]! + (m[3] ?? '');
  const unscaled = BigInt(digits);
  return { unscaled: m[1] === '-' ? -unscaled : unscaled, scale: (m[3] ?? '').length };
}

/** inf.Dec Round(x, scale, RoundUp): away from zero, and the result always has that scale. */
function roundUp(d: Dec, scale: number): Dec {
  if (d.scale <= scale) return { unscaled: d.unscaled * pow10(scale - d.scale), scale };
  const div = pow10(d.scale - scale);
  let q = d.unscaled / div;
  if (d.unscaled % div !== 0n) q += d.unscaled < 0n ? -1n : 1n;
  return { unscaled: q, scale };
}

/** Both at the larger scale (inf's upscale). */
function upscale(a: Dec, b: Dec): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.unscaled, b.unscaled, a.scale];
  if (a.scale > b.scale) return [a.unscaled, b.unscaled * pow10(a.scale - b.scale), a.scale];
  return [a.unscaled * pow10(b.scale - a.scale), b.unscaled, b.scale];
}

const decCmp = (a: Dec, b: Dec): number => {
  const [x, y] = upscale(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
};

const asDec = (a: Int64Amount): Dec => ({ unscaled: a.value, scale: -a.scale });

/** positiveScaleInt64: value * 10^scale, undefined on int64 overflow. */
function positiveScale(value: bigint, scale: number): bigint | undefined {
  const r = value * pow10(scale);
  return fitsInt64(r) ? r : undefined;
}

/** int64Amount.Add: false (and `a` untouched) on overflow. */
function int64Add(a: Int64Amount, b: Int64Amount): boolean {
  if (b.value === 0n) return true;
  if (a.value === 0n) {
    a.value = b.value;
    a.scale = b.scale;
    return true;
  }
  let sum: bigint;
  if (a.scale === b.scale) sum = a.value + b.value;
  else if (a.scale > b.scale) {
    const c = positiveScale(a.value, a.scale - b.scale);
    if (c === undefined) return false;
    sum = c + b.value;
  } else {
    const c = positiveScale(b.value, b.scale - a.scale);
    if (c === undefined) return false;
    sum = a.value + c;
  }
  if (!fitsInt64(sum)) return false;
  a.value = sum;
  a.scale = Math.min(a.scale, b.scale);
  return true;
}

// math.Pow10's tables: products and quotients of these exact float64 constants.
const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

/** Go's math.Pow10, table for table, so products round as Go's do. */
export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.trunc(n / 32)]! * POW10_TAB[n % 32]!;
  if (n >= -323 && n <= 0) return POW10_NEG32[Math.trunc(-n / 32)]! / POW10_TAB[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/**
 * A resource.Quantity. Methods mirror Go's pointer-receiver methods, including their side effects:
 * Cmp converts the receiver to its Dec form when either side is one, and Add/Sub on a copy
 * change the Dec it shares with the original.
 */
export class Quantity {
  /** The int64 form, used while `d` is undefined. */
  i: Int64Amount;
  d: Dec | undefined;

  /** Quantity.Format: how String() writes the value back (the zero Quantity has "", DecimalExponent). */
  format: QuantityFormat;
  /** The cached String(): ParseQuantity keeps an input already in canonical form. */
  s: string | undefined;

  constructor(i: Int64Amount = { value: 0n, scale: 0 }, d?: Dec, format: QuantityFormat = 'DecimalExponent') {
    this.i = i;
    this.d = d;
    this.format = format;
  }

  /** NewQuantity(value, DecimalExponent). */
  static fromInt64(value: bigint): Quantity {
    return new Quantity({ value, scale: 0 });
  }

  /** ParseQuantity: the quantity, or the Go error text. */
  static parse(str: string): Quantity | string {
    if (str.length === 0) return ERR_FORMAT_WRONG;
    if (str === '0') {
      const zero = new Quantity(undefined, undefined, 'DecimalSI');
      zero.s = str;
      return zero;
    }
    const scanned = scanQuantity(str);
    if (typeof scanned === 'string') return scanned;
    const { positive, value, num, denom } = scanned;
    const suffix = interpretSuffix(scanned.suffix);
    if (!suffix) return ERR_SUFFIX;
    const { base, exponent, format } = suffix;

    let precision = 0;
    let scale = 0;
    let mantissa = 1n;
    if (format === 'BinarySI') {
      if (exponent >= 0 && denom.length === 0) {
        mantissa = 1n << BigInt(exponent);
        // 1Mi (2^20) has ~6 digits of decimal precision, so exponent*3/10 - 1 is roughly the precision.
        precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
      } else precision = -1;
    } else {
      scale = exponent;
      precision = MAX_INT64_FACTORS - (num.length + denom.length);
    }
    if (precision >= 0) {
      scale -= denom.length;
      if (scale >= NANO) {
        const shifted = BigInt(num + denom);
        const result = shifted * mantissa;
        if (fitsInt64(result)) {
          const q = new Quantity({ value: positive ? result : -result, scale }, undefined, format);
          // A string already in canonical form is kept as written (`+1`, `1E3` stay so).
          const digits = num + denom;
          const canonical = format === 'BinarySI' ? exponent % 10 === 0 && (shifted & 7n) !== 0n : scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
          if (canonical) q.s = str;
          return q;
        }
      }
    }

    let amount = decFromString(value);
    if (!amount) return ERR_NUMERIC;
    if (base === 10) amount.scale -= exponent;
    else amount.unscaled *= 1n << BigInt(exponent);
    const negative = amount.unscaled < 0n;
    if (negative) amount.unscaled = -amount.unscaled;
    // Non-zero values round up to the smallest representable amount (nano).
    if (amount.unscaled !== 0n) amount = roundUp(amount, -NANO);
    // BinarySI is capped at the largest int64.
    if (format === 'BinarySI' && decCmp(amount, { unscaled: MAX_INT64, scale: 0 }) > 0) amount = { unscaled: MAX_INT64, scale: 0 };
    if (negative) amount.unscaled = -amount.unscaled;
    return new Quantity(undefined, amount, format);
  }

  /** `copy := *q`: the int form copied, the Dec shared. */
  copy(): Quantity {
    return new Quantity({ ...this.i }, this.d, this.format);
  }

  /**
   * String(): the canonical form MarshalJSON writes (CanonicalizeBytes), so `1000m` is stored as
   * `1`, `0.5` as `500m` and `1024Mi` as `1Gi`. BinarySI values below 1024 or not whole print as
   * DecimalSI; an exponent with no suffix (past E, below n) prints with none, as Go does.
   */
  toString(): string {
    if (this.s !== undefined) return this.s;
    if (this.isZero()) return '0';
    const unscaled = this.d ? this.d.unscaled : this.i.value;
    const exponent = this.d ? -this.d.scale : this.i.scale;
    let format = this.format;
    if (format === 'BinarySI') {
      const whole = exponent >= 0 || unscaled % pow10(-exponent) === 0n;
      const value = exponent >= 0 ? unscaled * pow10(exponent) : unscaled / pow10(-exponent);
      if ((value > -1024n && value < 1024n) || !whole) format = 'DecimalSI';
      else {
        let [amount, times] = [value, 0];
        while (amount !== 0n && amount % 1024n === 0n) {
          amount /= 1024n;
          times++;
        }
        return `${amount}${BINARY_SUFFIX_BY_EXPONENT[times * 10] ?? ''}`;
      }
    }
    let [amount, exp] = [unscaled, exponent];
    while (amount % 10n === 0n) {
      amount /= 10n;
      exp++;
    }
    // The exponent moves down to a multiple of three.
    const floor = Math.floor(exp / 3) * 3;
    amount *= pow10(exp - floor);
    exp = floor;
    if (format === 'DecimalSI') return `${amount}${DECIMAL_SUFFIX_BY_EXPONENT[exp] ?? ''}`;
    return exp === 0 ? `${amount}` : `${amount}e${exp}`;
  }

  /** AsDec: converts the receiver in place. */
  asDec(): Dec {
    if (!this.d) {
      this.d = asDec(this.i);
      this.i = { value: 0n, scale: 0 };
    }
    return this.d;
  }

  isZero(): boolean {
    return this.d ? this.d.unscaled === 0n : this.i.value === 0n;
  }

  sign(): number {
    const v = this.d ? this.d.unscaled : this.i.value;
    return v === 0n ? 0 : v > 0n ? 1 : -1;
  }

  /** Cmp(y): y is Go's by-value copy, so only the receiver changes form. */
  cmp(y: Quantity): number {
    if (!this.d && !y.d) return decCmp(asDec(this.i), asDec(y.i));
    return decCmp(this.asDec(), y.copy().asDec());
  }

  /** Quantity.Equal has a value receiver: neither side changes. */
  equal(y: Quantity): boolean {
    return this.copy().cmp(y) === 0;
  }

  /** Add(y) in place (on a copy, the shared Dec changes too). */
  add(y: Quantity): void {
    this.s = undefined;
    // A zero receiver takes y's format (so a usage summed from "0" prints 4Gi, not 4294967296).
    if (!this.d && !y.d) {
      if (this.i.value === 0n) this.format = y.format;
      if (int64Add(this.i, y.i)) return;
    } else if (this.isZero()) this.format = y.format;
    this.decOp(y, 1n);
  }

  /** Sub(y) in place; Go negates y's int64 value with wrap-around. */
  sub(y: Quantity): void {
    this.s = undefined;
    if (this.isZero()) this.format = y.format;
    if (!this.d && !y.d && int64Add(this.i, { value: BigInt.asIntN(64, -y.i.value), scale: y.i.scale })) return;
    this.decOp(y, -1n);
  }

  /** `q.ToDec().d.Dec.Add(q.d.Dec, y.AsDec())`, mutating the Dec in place. */
  private decOp(y: Quantity, sign: bigint): void {
    const d = this.asDec();
    const [a, b, scale] = upscale(d, y.copy().asDec());
    d.unscaled = a + sign * b;
    d.scale = scale;
  }

  /** AsInt64: only the int form converts, and only without losing precision. */
  asInt64(): bigint | undefined {
    if (this.d) return undefined;
    if (this.i.scale === 0) return this.i.value;
    if (this.i.scale < 0) return undefined;
    return positiveScale(this.i.value, this.i.scale);
  }

  /** AsApproximateFloat64: the unscaled value times math.Pow10 of the exponent. */
  asApproximateFloat64(): number {
    const [base, exponent] = this.d ? [Number(this.d.unscaled), -this.d.scale] : [Number(this.i.value), this.i.scale];
    if (exponent === 0) return base;
    return base * goPow10(exponent);
  }

  /** The exact value. */
  toRational(): Rational {
    const d = this.d ?? asDec(this.i);
    return d.scale >= 0 ? { num: d.unscaled, den: pow10(d.scale) } : { num: d.unscaled * pow10(-d.scale), den: 1n };
  }
}

/** Parses a quantity ("500m", "1.5Gi", "2e3", 4) as its JSON form would be; undefined when it is not one. */
export function parseQuantity(input: unknown): Rational | undefined {
  const text = typeof input === 'number' ? String(input) : input;
  if (typeof text !== 'string') return undefined;
  const q = Quantity.parse(text.trim());
  return typeof q === 'string' ? undefined : q.toRational();
}

export function addQuantities(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

/** -1, 0 or 1, like Quantity.Cmp. */
export function compareQuantities(a: Rational, b: Rational): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export const ZERO: Rational = { num: 0n, den: 1n };
