// The resource.Quantity port against apimachinery's own vectors (quantity_test.go TestQuantityParse
// and its invalid inputs), plus the arithmetic the CEL library relies on.
import { describe, expect, it } from 'vitest';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, goPow10, Quantity } from './quantity.ts';

/** decQuantity(v, scale): v × 10^scale. */
const dec = (v: bigint, scale: number): Quantity => new Quantity(undefined, { unscaled: v, scale: -scale });
const parse = (s: string): Quantity => {
  const q = Quantity.parse(s);
  if (typeof q === 'string') throw new Error(`${s}: ${q}`);
  return q;
};

describe('Quantity.parse (TestQuantityParse)', () => {
  const MAX_INT64 = (1n << 63n) - 1n;
  const table: Array<[string, Quantity]> = [
    ['0', dec(0n, 0)], ['0n', dec(0n, 0)], ['0u', dec(0n, 0)], ['0m', dec(0n, 0)], ['0Ki', dec(0n, 0)], ['0k', dec(0n, 0)],
    ['0Mi', dec(0n, 0)], ['0M', dec(0n, 0)], ['0Gi', dec(0n, 0)], ['0G', dec(0n, 0)], ['0Ti', dec(0n, 0)], ['0T', dec(0n, 0)],
    ['1', dec(1n, 0)],
    ['1Ki', dec(1024n, 0)], ['8Ki', dec(8n * 1024n, 0)], ['7Mi', dec(7n << 20n, 0)], ['6Gi', dec(6n << 30n, 0)], ['5Ti', dec(5n << 40n, 0)],
    ['4Pi', dec(4n << 50n, 0)], ['3Ei', dec(3n << 60n, 0)], ['10Ti', dec(10n << 40n, 0)], ['100Ti', dec(100n << 40n, 0)],
    ['5n', dec(5n, -9)], ['4u', dec(4n, -6)], ['3m', dec(3n, -3)], ['9', dec(9n, 0)], ['8k', dec(8n, 3)], ['50k', dec(5n, 4)], ['7M', dec(7n, 6)],
    ['6G', dec(6n, 9)], ['5T', dec(5n, 12)], ['40T', dec(4n, 13)], ['300T', dec(3n, 14)], ['2P', dec(2n, 15)], ['1E', dec(1n, 18)],
    ['1E-3', dec(1n, -3)], ['1e3', dec(1n, 3)], ['1E6', dec(1n, 6)], ['1e9', dec(1n, 9)], ['1E12', dec(1n, 12)], ['1e15', dec(1n, 15)], ['1E18', dec(1n, 18)],
    ['1e14', dec(1n, 14)], ['1e13', dec(1n, 13)], ['100.035k', dec(100035n, 0)],
    ['0.001', dec(1n, -3)], ['0.0005k', dec(5n, -1)], ['0.005', dec(5n, -3)], ['0.05', dec(5n, -2)], ['0.5', dec(5n, -1)], ['0.00050k', dec(5n, -1)],
    ['0.00500', dec(5n, -3)], ['0.05000', dec(5n, -2)], ['0.50000', dec(5n, -1)], ['0.5e0', dec(5n, -1)], ['0.5e-1', dec(5n, -2)], ['0.5e-2', dec(5n, -3)],
    ['10.035M', dec(10035n, 3)],
    ['1.2e3', dec(12n, 2)], ['1.3E+6', dec(13n, 5)], ['1.40e9', dec(14n, 8)], ['1.53E12', dec(153n, 10)], ['1.6e15', dec(16n, 14)], ['1.7E18', dec(17n, 17)],
    ['9.01', dec(901n, -2)], ['8.1k', dec(81n, 2)], ['7.123456M', dec(7123456n, 0)], ['6.987654321G', dec(6987654321n, 0)], ['5.444T', dec(5444n, 9)],
    ['40.1T', dec(401n, 11)], ['300.2T', dec(3002n, 11)], ['2.5P', dec(25n, 14)], ['1.01E', dec(101n, 16)],
    // Things that saturate/round.
    ['3.001n', dec(4n, -9)], ['1.1E-9', dec(2n, -9)], ['0.0000000001', dec(1n, -9)], ['0.0000000005', dec(1n, -9)], ['0.00000000050', dec(1n, -9)],
    ['0.5e-9', dec(1n, -9)], ['0.9n', dec(1n, -9)], ['0.00000012345', dec(124n, -9)], ['0.00000012354', dec(124n, -9)],
    ['9Ei', dec(MAX_INT64, 0)], ['9223372036854775807Ki', dec(MAX_INT64, 0)], ['12E', dec(12n, 18)],
    ['100.035Ki', dec(10243584n, -2)], ['0.5Mi', dec(524288n, 0)], ['0.05Gi', dec(536870912n, -1)], ['0.025Ti', dec(274877906944n, -1)],
    // Things written by trolls.
    ['0.000000000001Ki', dec(2n, -9)], ['.001', dec(1n, -3)], ['.0001k', dec(100n, -3)], ['1.', dec(1n, 0)], ['1.G', dec(1n, 9)],
  ];

  it('parses every value of the table, in int64 and inf.Dec form', () => {
    for (const [input, want] of table) {
      expect(parse(input).cmp(want), input).toBe(0);
      const asDec = parse(input);
      asDec.asDec();
      expect(asDec.cmp(want), input).toBe(0);
      expect(asDec.asInt64(), input).toBeUndefined();
      const exact = want.toRational();
      const got = parse(input);
      // An int64 amount with a non-negative scale converts whenever the value is an integer in int64 range.
      if (!got.d && got.i.scale >= 0 && exact.den === 1n && exact.num <= MAX_INT64) expect(got.asInt64(), input).toBe(exact.num);
    }
  });

  it('rejects what apimachinery rejects, with its errors', () => {
    for (const s of ['1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-', ' 1', '1 ', '']) {
      expect(typeof Quantity.parse(s), s).toBe('string');
    }
    expect(Quantity.parse('aoeu')).toBe(ERR_FORMAT_WRONG);
    expect(Quantity.parse('1i')).toBe(ERR_SUFFIX);
    expect(Quantity.parse('.e-20')).toBe(ERR_NUMERIC);
  });

  it('reads a bare suffix as zero (kubernetes/apimachinery#165)', () => {
    expect(parse('Mi').sign()).toBe(0);
    expect(parse('k').isZero()).toBe(true);
  });
});

describe('Quantity arithmetic', () => {
  it('adds and subtracts in int64 form, falling back to inf.Dec on overflow', () => {
    const q = parse('50k');
    q.add(Quantity.fromInt64(20n));
    expect(q.asInt64()).toBe(50020n);
    const big = parse('9223372036854775807');
    big.add(Quantity.fromInt64(1n));
    expect(big.d).toBeDefined();
    expect(big.cmp(parse('9223372036854775808'))).toBe(0);
    const s = parse('1');
    s.sub(parse('1.5'));
    expect(s.cmp(parse('-0.5'))).toBe(0);
  });

  it('shares the inf.Dec between copies, as Go copies a struct holding a pointer', () => {
    const original = parse('1.5Ki');
    const copy = original.copy();
    copy.add(Quantity.fromInt64(1n));
    expect(original.cmp(parse('1537'))).toBe(0);
  });

  it('Cmp converts the receiver to inf.Dec only when either side is one', () => {
    const a = parse('1');
    expect(a.cmp(parse('2'))).toBe(-1);
    expect(a.asInt64()).toBe(1n);
    expect(a.cmp(parse('1.5Ki'))).toBe(-1);
    expect(a.asInt64()).toBeUndefined();
    const b = parse('1');
    expect(b.equal(parse('1.5Ki'))).toBe(false);
    expect(b.asInt64()).toBe(1n);
  });

  it('approximates floats as unscaled × math.Pow10(exponent)', () => {
    expect(parse('0.3').asApproximateFloat64()).toBe(3 * 0.1);
    expect(parse('50.703k').asApproximateFloat64()).toBe(50703);
    expect(parse('1.5Ki').asApproximateFloat64()).toBe(1536000000000 * goPow10(-9));
    expect(goPow10(309)).toBe(Infinity);
    expect(goPow10(-324)).toBe(0);
    expect(goPow10(-320)).toBe(1e-320);
  });
});

describe('String (the canonical form MarshalJSON writes)', () => {
  const canonical = (s: string) => {
    const q = Quantity.parse(s);
    if (typeof q === 'string') throw new Error(q);
    return q.toString();
  };
  it('moves decimal values to the largest suffix that keeps them whole', () => {
    expect(['1000m', '0.5', '1000', '1500m', '0.1', '100M', '-1000m', '12e-2', '5000k'].map(canonical)).toEqual(['1', '500m', '1k', '1500m', '100m', '100M', '-1', '120e-3', '5M']);
  });
  it('keeps binary values binary from 1024 up when whole', () => {
    expect(['1024Mi', '1.5Gi', '1Ki', '1023Ki', '0.5Ki'].map(canonical)).toEqual(['1Gi', '1536Mi', '1Ki', '1023Ki', '512']);
  });
  it('keeps a string already in canonical form as written, and zero as "0"', () => {
    expect(['+1', '1E3', '1e3', '0', '0.0'].map(canonical)).toEqual(['+1', '1E3', '1e3', '0', '0']);
  });
  it('writes no suffix for an exponent with none, as Go does', () => {
    expect(canonical('1000E')).toBe('1');
  });
});
