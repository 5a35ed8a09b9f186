// Timestamps, durations and ext.Strings as Kubernetes 1.36 evaluates them (cel-go v0.26, ext.Strings
// version 2): nanosecond timestamps from date-time fields, cel-go's range and conversion errors,
// time zones, `duration + timestamp`, and the version-2 string functions and formatter.
import { describe, expect, it } from 'vitest';
import { compile, compileExpression } from '../src/cel/index.ts';

const value = (expression: string, variables: Record<string, string> = {}, bindings: Record<string, unknown> = {}) => {
  const e = compileExpression(expression, variables);
  if (e.error) throw new Error(e.error);
  return e.evaluate(bindings);
};
const failure = (expression: string): string => {
  const e = compileExpression(expression);
  if (e.error) return `compile: ${e.error}`;
  try {
    e.evaluate();
  } catch (err) {
    return (err as Error).message.split('\n')[0]!;
  }
  return 'no error';
};

const window = { type: 'object', properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' } } };

describe('timestamps', () => {
  it('keeps the nanoseconds of date-time fields: ordering and printing', () => {
    const ordered = compile('self.start < self.end', window);
    expect(ordered.errors).toEqual([]);
    // Equal milliseconds, different microseconds: a millisecond Date would call them equal.
    expect(ordered.evaluate({ start: '2024-05-01T10:00:00.123456Z', end: '2024-05-01T10:00:00.123457Z' }).valid).toBe(true);
    expect(ordered.evaluate({ start: '2024-05-01T10:00:00.123457Z', end: '2024-05-01T10:00:00.123456Z' }).valid).toBe(false);
    expect(compile("string(self.start) == '2024-05-01T08:00:00.000000001Z'", window).evaluate({ start: '2024-05-01T10:00:00.000000001+02:00' }).valid).toBe(true);
    expect(value("string(timestamp('9999-12-31T23:59:59.999999999Z'))")).toBe('9999-12-31T23:59:59.999999999Z');
    expect(value("timestamp('2024-05-01T10:00:00.5Z') - timestamp('2024-05-01T09:59:59.000000001Z') == duration('1.499999999s')")).toBe(true);
  });

  it('types duration + timestamp as a timestamp and adds exactly', () => {
    expect(compileExpression("duration('120s') + timestamp('2009-02-13T23:01:00Z')").type).toBe('google.protobuf.Timestamp');
    expect(value("timestamp('0001-01-01T00:00:01.999999999Z') + duration('999999999ns') == timestamp('0001-01-01T00:00:02.999999998Z')")).toBe(true);
    const expiry = compile('self.start + self.ttl <= self.end', window);
    expect(expiry.evaluate({ start: '2024-05-01T10:00:00Z', ttl: '1h30m', end: '2024-05-01T11:30:00Z' }).valid).toBe(true);
    expect(expiry.evaluate({ start: '2024-05-01T10:00:00Z', ttl: '1h30m0.000001s', end: '2024-05-01T11:30:00Z' }).valid).toBe(false);
  });

  it("raises cel-go's errors: timestamp overflow, integer overflow, type conversion", () => {
    expect(failure("timestamp('9999-12-31T23:59:59.999999999Z') + duration('1ns')")).toBe('timestamp overflow');
    expect(failure("timestamp('0001-01-01T00:00:00Z') - duration('1ns')")).toBe('timestamp overflow');
    expect(failure("timestamp('0000-01-01T00:00:00Z')")).toBe('timestamp overflow');
    expect(failure('timestamp(253402300800)')).toBe('timestamp overflow');
    expect(failure("timestamp('2024-02-30T00:00:00Z')")).toBe("type conversion error from 'string' to 'google.protobuf.Timestamp'");
    // Durations are Go's time.Duration: int64 nanoseconds, about ±292 years.
    expect(failure("duration('2562047h') + duration('2562047h')")).toBe('integer overflow');
    expect(failure("duration('9999999999s')")).toBe("type conversion error from 'string' to 'google.protobuf.Duration'");
    expect(failure("timestamp('9999-12-31T23:59:59Z') - timestamp('0001-01-01T00:00:00Z')")).toBe('integer overflow');
  });

  it('reads fields in a time zone given by IANA name or ±hh:mm offset', () => {
    const t = "timestamp('2009-02-13T23:31:30.123456789Z')";
    expect(value(`${t}.getHours('02:00')`)).toBe(1n);
    expect(value(`${t}.getHours('-08:30')`)).toBe(15n);
    expect(value(`${t}.getHours('America/Los_Angeles')`)).toBe(15n);
    expect(value(`${t}.getDayOfWeek('Asia/Tokyo')`)).toBe(6n);
    expect(value(`${t}.getDayOfYear()`)).toBe(43n);
    expect(value(`${t}.getMilliseconds()`)).toBe(123n);
    expect(failure(`${t}.getHours('Mars/Olympus')`)).toBe('unknown time zone Mars/Olympus');
  });

  it('prints and measures durations as cel-go', () => {
    expect(value("string(duration('-1.5s'))")).toBe('-1.5s');
    expect(value("string(duration('2ns'))")).toBe('0.000000002s');
    expect(value("duration('-1.5s').getMilliseconds()")).toBe(-1500n);
    expect(value("duration('-1.5s') == duration('-1s') - duration('500ms')")).toBe(true);
  });
});

describe('ext.Strings version 2', () => {
  it('has no reverse(), and cel-go semantics for the built-ins', () => {
    expect(failure("'abc'.reverse()")).toMatch(/^compile: .*'reverse'/);
    expect(value("'TacoCÆt'.lowerAscii() + 'tacoCαt'.upperAscii()")).toBe('tacocÆtTACOCαT');
    expect(value("'\\u0085\\u00a0text\\ufeff'.trim()")).toBe('text\ufeff');
    expect(value("'😀a😀b'.indexOf('b') + '😀a😀b'.lastIndexOf('😀')")).toBe(5n);
    expect(value("'tacocat'.indexOf('a', 30) + 'tacocat'.lastIndexOf('a', 30)")).toBe(-2n);
    expect(value("'😀x😀'.split('')")).toEqual(['😀', 'x', '😀']);
    expect(failure("'tacocat'.substring(4, 3)")).toBe('invalid substring range. start: 4, end: 3');
    expect(failure("'tacocat'.substring(1, 50)")).toBe('index out of range: 50');
    expect(failure("'tacocat'.charAt(30)")).toBe('index out of range: 30');
    expect(value("strings.quote('a\\u0001b\\n')")).toBe('"a\u0001b\\n"');
  });

  it('formats as the version-2 formatter (ext/formatting.go, en_US)', () => {
    expect(value("'%.3f|%f|%.0f|%.0f'.format([1.2345, 1234567.891, 2.5, 3.5])")).toBe('1.234|1,234,567.891000|2|4');
    expect(value("'%e|%.6e'.format([2.71828, 1052.032911275])")).toBe('2.718280\u202f×\u202f10⁰⁰|1.052033\u202f×\u202f10⁰³');
    expect(value("'%f %f'.format(['NaN', '-Infinity'])")).toBe('NaN -∞');
    expect(value("'%s|%s|%s'.format([2.71, 0.000000002, 1e6])")).toBe('2.71|2e-09|1e+06');
    expect(value(`'%s'.format([[dyn("abc"), dyn(3.14), dyn(null), dyn(b"x"), dyn(timestamp("2023-02-03T23:31:20Z")), dyn(duration("7m"))]])`)).toBe(
      '["abc", 3.140000, null, b"x", timestamp("2023-02-03T23:31:20Z"), duration("420s")]',
    );
    expect(value(`'%s'.format([{"b": dyn(2.5), "a": dyn(true)}])`)).toBe('{"a":true, "b":2.500000}');
    expect(value("'%b %o %x %X %d'.format([dyn(true), dyn(8), dyn('hi'), dyn(255), dyn(3u)])")).toBe('1 10 6869 FF 3');
  });

  it('reports formatting errors in cel-go words', () => {
    expect(failure("'%d'.format([2.5])")).toBe('error during formatting: decimal clause can only be used on integers, was given double');
    expect(failure("'%f'.format([2])")).toBe('error during formatting: fixed-point clause can only be used on doubles, was given int');
    expect(failure("'%x'.format([null])")).toBe('error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type');
    expect(failure("'%s %s'.format(['a'])")).toBe('index 1 out of range');
    expect(failure("'%a'.format([1])")).toBe('could not parse formatting clause: unrecognized formatting clause "a"');
    expect(failure("'%.3'.format([1.0])")).toBe('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
  });
});
