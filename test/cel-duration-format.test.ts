// CRD `format: duration` as Kubernetes 1.36 reads it: kube-openapi strfmt.ParseDuration, in schema
// validation and when a CEL rule reads the field (valuesunstructured.go), so the Scala-style forms
// ("1d", "2 weeks") are durations too; duration() in a rule stays Go's time.ParseDuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { goParseDuration, goParseDurationResult, strfmtParseDuration } from '../src/go/duration.ts';
import { at, installWidgets, specSchema, widget } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

const H = 3_600_000_000_000n;
const S = 1_000_000_000n;

describe('goParseDuration (time.ParseDuration)', () => {
  it('parses units, signs, fractions and "0"', () => {
    expect(goParseDuration('1h30m')).toBe(H + 30n * 60n * S);
    expect(goParseDuration('-1.5s')).toBe(-1_500_000_000n);
    expect(goParseDuration('+.5ms')).toBe(500_000n);
    expect(goParseDuration('1.s')).toBe(S);
    expect(goParseDuration('0')).toBe(0n);
    expect(goParseDuration('1µs')).toBe(1_000n); // U+00B5
    expect(goParseDuration('1μs')).toBe(1_000n); // U+03BC
    // The fraction scaled in float64 and truncated, as Go does.
    expect(goParseDuration('0.3333333333h')).toBe(1_199_999_999_880n);
  });

  it('errors where Go does: syntax, unknown units, beyond int64 nanoseconds', () => {
    for (const bad of ['', '-', '1', '.s', '1d', '1hs', '1 h', 's', '9223372036854775808ns', '2562048h']) expect(goParseDuration(bad), bad).toBeUndefined();
    expect(goParseDuration('9223372036854775807ns')).toBe((1n << 63n) - 1n);
    expect(goParseDuration('-9223372036854775808ns')).toBe(-(1n << 63n));
  });

  // go/src/time/format.go ParseDuration's three texts, quoted by time's quote: non-ASCII and
  // control characters as \x bytes, where strconv.Quote (and JSON) would keep `é` as it is.
  it('returns Go\'s error texts, quoted as time quotes', () => {
    const error = (s: string) => {
      const r = goParseDurationResult(s);
      return r.ok ? r.nanos : r.error;
    };
    expect(error('5x')).toBe('time: unknown unit "x" in duration "5x"');
    expect(error('1h5')).toBe('time: missing unit in duration "1h5"');
    expect(error('')).toBe('time: invalid duration ""');
    expect(error('.s')).toBe('time: invalid duration ".s"');
    expect(error('2562048h')).toBe('time: invalid duration "2562048h"');
    expect(error('5é')).toBe('time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"');
    expect(error('"1\n')).toBe('time: invalid duration "\\"1\\x0a"');
    expect(error('1\\')).toBe('time: unknown unit "\\\\" in duration "1\\\\"');
    expect(error('1h')).toBe(H);
  });
});

describe('strfmtParseDuration (kube-openapi strfmt.ParseDuration)', () => {
  it('falls back to "<digits> <unit>" parts anywhere in the string', () => {
    expect(strfmtParseDuration('1d')).toBe(24n * H);
    expect(strfmtParseDuration('2 weeks')).toBe(2n * 168n * H);
    expect(strfmtParseDuration('3 hours and 4 min')).toBe(3n * H + 4n * 60n * S);
    expect(strfmtParseDuration('1hr')).toBe(H);
    expect(strfmtParseDuration('1.5h')).toBe(H + H / 2n); // time.ParseDuration first
  });

  it('errors with no known unit, or a number beyond int64; wraps the sum at int64 as Go does', () => {
    for (const bad of ['', 'soon', '5 hrs', '1 fortnight', '9223372036854775808 d']) expect(strfmtParseDuration(bad), bad).toBeUndefined();
    // 20000 weeks is beyond int64 nanoseconds: time.Duration multiplication wraps.
    expect(strfmtParseDuration('20000w')).toBe(BigInt.asIntN(64, 20000n * 168n * H));
  });
});

describe('a format: duration field read by a rule, through the client', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await createFakeCluster();
  });
  afterAll(() => cluster.close());

  it("'1d' is 24h to `self.d == duration('24h')`; other values fail the rule or the format", async () => {
    const rule = "self.d == duration('24h')";
    const api = await installWidgets(cluster, specSchema({ d: { type: 'string', format: 'duration' } }, { 'x-kubernetes-validations': [{ rule }] }));
    const create = (name: string, d: string) => api.createNamespacedCustomObject({ ...at, body: widget(name, { d }) });
    await create('one-day', '1d');
    await create('hours', '24h');
    await create('spelled', '1 day');
    await expectStatus(create('two-days', '2d'), { code: 422, message: `Widget.schema.example.com "two-days" is invalid: spec: Invalid value: failed rule: ${rule}` });
    await expectStatus(create('bogus', 'soon'), {
      code: 422,
      message:
        'Widget.schema.example.com "bogus" is invalid: [spec.d: Invalid value: "soon": spec.d in body must be of type duration: "soon", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    });
  });
});
