import { describe, expect, it } from 'vitest';
import { labelSelectorFrom, parseLabelSelector } from './label-selector.ts';
import { newRequirement } from './label-requirement.ts';
import { SelectorParseError } from './selector-error.ts';

// Message fragments exactly as apimachinery v0.36 builds them (note RegexError's double spaces).
const KEY_RE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUBDOMAIN_RE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const OPS = 'in, notin, =, ==, !=, gt, lt';

function parseError(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorParseError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

const matches = (sel: string, labels?: Record<string, string>): boolean => parseLabelSelector(sel).matches(labels);

describe('parseLabelSelector: syntax and canonical form', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['!x', '!x'],
    ['! x', '!x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['y==b', 'y==b'],
    ['z,y=b,x', 'x,y=b,z'],
    ['\rx', 'x'],
    ['foo  in\t (abc)', 'foo in (abc)'],
    ['x notin\n (abc)', 'x notin (abc)'],
    ['x in (b,a,b)', 'x in (a,b)'],
    ['x in ()', 'x in ()'],
    ['x notin ( )', 'x notin ()'],
    ['x in (abc,)', 'x in (,abc)'],
    ['x notin (, a)', 'x notin (,a)'],
    ['x in (a,,a,,a,,a,,)', 'x in (,a)'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ['notin=in', 'notin=in'],
    ['in in (in)', 'in in (in)'],
    ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
  ])('%j prints as %j', (input, out) => {
    expect(parseLabelSelector(input).toString()).toBe(out);
  });

  it('reports emptiness and keeps requirements sorted by key', () => {
    expect(parseLabelSelector('').empty).toBe(true);
    const sel = parseLabelSelector('b in (y,x),a');
    expect(sel.empty).toBe(false);
    expect(sel.requirements).toEqual([
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: 'in', values: ['x', 'y'] },
    ]);
  });

  it('ends the input at a NUL byte in a token position, as Go reading byte 0 does', () => {
    expect(parseLabelSelector('x \u0000y').toString()).toBe('x');
    // Inside an identifier the NUL only ends that identifier.
    expect(parseError('a\u0000b')).toBe(`unable to parse requirement: found 'b', expected: ${OPS}`);
  });
});

describe('parseLabelSelector: matching', () => {
  it('equality and inequality', () => {
    expect(matches('', { x: 'y' })).toBe(true);
    expect(matches('', undefined)).toBe(true);
    expect(matches('x=y', { x: 'y' })).toBe(true);
    expect(matches('x==y', { x: 'y' })).toBe(true);
    expect(matches('x=y', { x: 'z' })).toBe(false);
    expect(matches('x=z', {})).toBe(false);
    expect(matches('x=', { x: '' })).toBe(true);
    expect(matches('x=', {})).toBe(false);
    expect(matches('x!=y,z!=w', { x: 'z', z: 'a' })).toBe(true);
    expect(matches('x!=y,z!=w', { x: 'z', z: 'w' })).toBe(false);
    expect(matches('x!=y', {})).toBe(true);
    expect(matches('x!=y', undefined)).toBe(true);
  });

  it('set-based operators; notin matches a missing key', () => {
    expect(matches('x in (foo),y notin (alpha)', { x: 'foo', y: 'baz' })).toBe(true);
    expect(matches('x in (foo),y in (alpha)', { x: 'foo', y: 'baz' })).toBe(false);
    expect(matches('x notin (),y', { y: '' })).toBe(true);
    expect(matches('x notin (),!y', { y: '' })).toBe(false);
    expect(matches('x in ()', { y: 'baz' })).toBe(false);
    expect(matches('x in ()', { x: '' })).toBe(true);
    expect(matches('x notin (a,b)', { x: 'b' })).toBe(false);
    expect(matches('x notin (a,b)', { x: 'c' })).toBe(true);
  });

  it('exists and does-not-exist', () => {
    expect(matches('x', { x: 'z' })).toBe(true);
    expect(matches('x', { y: 'z' })).toBe(false);
    expect(matches('!x', { y: 'z' })).toBe(true);
    expect(matches('!x', { x: 'z' })).toBe(false);
    expect(matches('!x', undefined)).toBe(true);
  });

  it('gt and lt compare as int64 and never match a missing or non-integer label', () => {
    expect(matches('x>1', { x: '2' })).toBe(true);
    expect(matches('x>1', { x: '1' })).toBe(false);
    expect(matches('x<1', { x: '0' })).toBe(true);
    expect(matches('x<1', { x: '2' })).toBe(false);
    expect(matches('x<1', { x: '-5' })).toBe(true);
    expect(matches('x>1', { x: 'v2' })).toBe(false);
    expect(matches('x>1', {})).toBe(false);
    expect(matches('x>9223372036854775806', { x: '9223372036854775807' })).toBe(true);
    expect(matches('x<5', { x: '9223372036854775808' })).toBe(false);
  });

  it('ANDs every term', () => {
    const labels = { foo: 'bar', baz: 'blah' };
    expect(matches('foo=bar,baz=blah', labels)).toBe(true);
    expect(matches('foo=bar,foobar=bar,baz=blah', labels)).toBe(false);
    expect(matches('x,y in (a)', { x: '1', y: 'a' })).toBe(true);
    expect(matches('x,y in (a)', { x: '1' })).toBe(false);
  });

  it('does not see inherited object properties as labels', () => {
    expect(matches('constructor', {})).toBe(false);
    expect(matches('!toString', {})).toBe(true);
  });
});

describe('parseLabelSelector: parser errors', () => {
  it.each([
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['a in (xyz),', "found '', expected: identifier after ','"],
    [',x,y', "found ',', expected: !, identifier, or 'end of string'"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['!=x', "found '!=', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!(', "unable to parse requirement: found '(', expected: identifier"],
    ['x nott in (y)', `unable to parse requirement: found 'nott', expected: ${OPS}`],
    ['a (', `unable to parse requirement: found '(', expected: ${OPS}`],
    ['x!', `unable to parse requirement: found '!', expected: ${OPS}`],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x in (a,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x>=1', "unable to parse requirement: found '=', expected: identifier"],
  ])('%j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });
});

describe('parseLabelSelector: key and value validation', () => {
  it('rejects bad keys with the <nil> path the apiserver prints', () => {
    expect(parseError('-x')).toBe(`unable to parse requirement: <nil>: Invalid value: "-x": name part ${KEY_RE}`);
    expect(parseError('x_=a')).toBe(`unable to parse requirement: <nil>: Invalid value: "x_": name part ${KEY_RE}`);
    expect(parseError('a/b/c')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ${KEY_RE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    expect(parseError('/x')).toBe('unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
    expect(parseError('Example.com/x')).toBe(`unable to parse requirement: <nil>: Invalid value: "Example.com/x": prefix part ${SUBDOMAIN_RE}`);
    expect(parseError('x/')).toBe(`unable to parse requirement: <nil>: Invalid value: "x/": name part must be non-empty; name part ${KEY_RE}`);
    const long = 'k'.repeat(64);
    expect(parseError(`${long}=v`)).toBe(`unable to parse requirement: <nil>: Invalid value: "${long}": name part must be no more than 63 bytes`);
    const longPrefix = `${'a'.repeat(254)}/x`;
    expect(parseError(longPrefix)).toBe(`unable to parse requirement: <nil>: Invalid value: "${longPrefix}": prefix part must be no more than 253 bytes`);
    expect(parseError('a"b')).toBe(`unable to parse requirement: <nil>: Invalid value: "a\\"b": name part ${KEY_RE}`);
  });

  it('accepts 63-byte keys and values and a prefixed key', () => {
    const k = 'k'.repeat(63);
    expect(parseLabelSelector(`example.com/${k}=${'v'.repeat(63)}`).empty).toBe(false);
  });

  it('rejects bad values under values[i][key]', () => {
    expect(parseError('x=a||y=b')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE_RE}`);
    expect(parseError('x=-a')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "-a": ${VALUE_RE}`);
    const long = 'v'.repeat(64);
    expect(parseError(`x=${long}`)).toBe(`unable to parse requirement: values[0][x]: Invalid value: "${long}": must be no more than 63 bytes`);
    const longBad = `${'v'.repeat(63)}-`;
    expect(parseError(`x=${longBad}`)).toBe(
      `unable to parse requirement: values[0][x]: Invalid value: "${longBad}": must be no more than 63 bytes; ${VALUE_RE}`,
    );
  });

  it('indexes set values in sorted order and aggregates several errors in brackets', () => {
    expect(parseError('x in (ok,-b,-a)')).toBe(
      `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${VALUE_RE}, values[1][x]: Invalid value: "-b": ${VALUE_RE}]`,
    );
  });

  it('requires an int64 for gt and lt, and still validates it as a label value', () => {
    const notInt = "for 'Gt', 'Lt' operators, the value must be an integer";
    expect(parseError('x<a')).toBe(`unable to parse requirement: values[0]: Invalid value: "a": ${notInt}`);
    expect(parseError('x>')).toBe(`unable to parse requirement: values[0]: Invalid value: "": ${notInt}`);
    expect(parseError('x>1.5')).toBe(`unable to parse requirement: values[0]: Invalid value: "1.5": ${notInt}`);
    expect(parseError('x>9223372036854775808')).toBe(`unable to parse requirement: values[0]: Invalid value: "9223372036854775808": ${notInt}`);
    expect(parseError('x>-1')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "-1": ${VALUE_RE}`);
    expect(parseError('x<-a')).toBe(
      `unable to parse requirement: [values[0]: Invalid value: "-a": ${notInt}, values[0][x]: Invalid value: "-a": ${VALUE_RE}]`,
    );
    expect(parseLabelSelector('x>9223372036854775807').toString()).toBe('x>9223372036854775807');
  });
});

describe('newRequirement (NewRequirement checks the parser never reaches)', () => {
  const fails = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('expected an error');
  };

  it('uses the bare key/values paths and JSON-renders value lists', () => {
    expect(fails(() => newRequirement('-k', 'exists', []))).toBe(`key: Invalid value: "-k": name part ${KEY_RE}`);
    expect(fails(() => newRequirement('k', 'in', []))).toBe("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
    expect(fails(() => newRequirement('k', '=', ['a', 'b']))).toBe('values: Invalid value: ["a","b"]: exact-match compatibility requires one single value');
    expect(fails(() => newRequirement('k', 'exists', ['a']))).toBe('values: Invalid value: ["a"]: values set must be empty for exists and does not exist');
    expect(fails(() => newRequirement('k', 'gt', ['1', '2']))).toBe(`values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`);
  });

  it('builds selectors from requirements in key order', () => {
    const sel = labelSelectorFrom([newRequirement('b', '!=', ['x']), newRequirement('a', '!', [])]);
    expect(sel.toString()).toBe('!a,b!=x');
    expect(sel.matches({ b: 'y' })).toBe(true);
  });
});
