// The Kubernetes CEL libraries quantity, semver and format (apiserver pkg/cel/library), through
// `kubefake/cel` with the upstream test vectors (quantity_test.go, semver_test.go, format_test.go),
// their costs (library/cost.go), and through client-node: CRDs whose x-kubernetes-validations use
// them, with valid and invalid custom resources.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Quantity } from '../src/apis/builtin/quantity.ts';
import { runtimeErrorMessage } from '../src/cel/errors.ts';
import { compile, compileExpression } from '../src/cel/index.ts';
import type { CelQuantity } from '../src/cel/library/quantity.ts';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clientCrd } from './support/client-schema.ts';
import { at, installWidgets, specSchema, widget, widgetCrd } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

type Outcome = { value: unknown } | { runtimeError: string } | { compileError: string };

function run(expression: string): Outcome {
  const e = compileExpression(expression);
  if (e.error !== undefined) return { compileError: e.error };
  try {
    return { value: e.evaluate() };
  } catch (err) {
    return { runtimeError: runtimeErrorMessage(err) };
  }
}

const valueOf = (expression: string): unknown => {
  const out = run(expression);
  if (!('value' in out)) throw new Error(`${expression}: ${JSON.stringify(out)}`);
  return out.value;
};
const runtimeError = (expression: string): string => {
  const out = run(expression);
  if (!('runtimeError' in out)) throw new Error(`${expression}: expected a runtime error, got ${JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
  return out.runtimeError;
};
const compileError = (expression: string): string => {
  const out = run(expression);
  if (!('compileError' in out)) throw new Error(`${expression}: expected a compile error`);
  return out.compileError;
};
/** An optional's content: undefined for optional.none(). */
const optionalValue = (expression: string): unknown => {
  const o = valueOf(expression) as { hasValue(): boolean; value(): unknown };
  return o.hasValue() ? o.value() : undefined;
};

describe('quantity (quantity_test.go)', () => {
  it('parses quantities, with the parser error texts', () => {
    const twelveMi = valueOf('quantity("12Mi")') as CelQuantity;
    expect(twelveMi.q.cmp(Quantity.parse('12582912') as Quantity)).toBe(0);
    expect(runtimeError('quantity("10Mo")')).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    // Passes the regular expression, fails the suffix check.
    expect(runtimeError('quantity("10Mm")')).toBe("unable to parse quantity's suffix");
    expect(runtimeError('quantity(".e-20")')).toBe('unable to parse numeric part of quantity');
    expect(runtimeError('quantity("")')).toMatch(/^quantities must match the regular expression/);
  });

  it('isQuantity', () => {
    const cases: Array<[string, boolean]> = [
      ['20', true], ['20M', true], ['20Mi', true], ['20Mo', false], ['10Mm', false],
      ['1.3G', true], ['1,3G', false], ['10000k', true], ['200K', false], ['Three', false],
      // quantity.go's doc says false, but ParseQuantity reads a bare suffix as zero
      // (kubernetes/apimachinery#165), and isQuantity is ParseQuantity.
      ['Mi', true], ['k', true],
    ];
    for (const [s, ok] of cases) expect(valueOf(`isQuantity("${s}")`), s).toBe(ok);
    expect(compileError('isQuantity([1, 2, 3])')).toContain("found no matching overload for 'isQuantity' applied to '(list(int))'");
  });

  it('equality, ordering and compareTo', () => {
    const cases: Array<[string, unknown]> = [
      ['quantity("200M") == quantity("200M")', true],
      ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
      ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', true],
      ['quantity("200M") == quantity("0.3G")', false],
      ['quantity("50M").isLessThan(quantity("50Mi"))', true],
      ['quantity("50M").isLessThan(quantity("100M"))', true],
      ['quantity("100M").isLessThan(quantity("50M"))', false],
      ['quantity("50Mi").isGreaterThan(quantity("50M"))', true],
      ['quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
      ['quantity("50M").isGreaterThan(quantity("100M"))', false],
      ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
      ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
      ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
      ['[quantity("200M")] == [quantity("0.2G")]', true],
      ['quantity("1") != quantity("2")', true],
    ];
    for (const [expr, want] of cases) expect(valueOf(expr), expr).toBe(want);
  });

  it('arithmetic and conversions to scalars', () => {
    const cases: Array<[string, unknown]> = [
      ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
      ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
      ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
      ['quantity("50k").sub(20) == quantity("49980")', true],
      ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
      ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n],
      ['quantity("50k").asInteger()', 50000n],
      ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
      ['quantity("50").isInteger()', true],
      ['quantity("50000000G").isInteger()', true],
      ['quantity("50.703k").asApproximateFloat()', 50703],
      ['quantity("50k").sub(20000).asApproximateFloat() == 30000.0', true],
      ['sign(quantity("-1.5Gi"))', -1n],
      ['sign(quantity("0"))', 0n],
      ['sign(quantity("3m"))', 1n],
    ];
    for (const [expr, want] of cases) expect(valueOf(expr), expr).toBe(want);
    expect(runtimeError('quantity("9999999999999999999999999999999999999G").asInteger()')).toBe('cannot convert value to integer');
  });

  it('keeps resource.Quantity representation quirks the apiserver shows', () => {
    // A negative scale never converts to an int64, and a value parsed into inf.Dec never does.
    expect(valueOf('quantity("1000m").isInteger()')).toBe(false);
    expect(valueOf('quantity("1.5k").isInteger()')).toBe(true);
    expect(valueOf('quantity("1.5Ki").isInteger()')).toBe(false);
    expect(valueOf('quantity("1.5Ki") == quantity("1536")')).toBe(true);
    // Cmp converts the receiver to inf.Dec when the other side is one, in place.
    expect(valueOf('cel.bind(q, quantity("1"), q.isInteger() && q.compareTo(quantity("1.5Ki")) == -1 && !q.isInteger())')).toBe(true);
    // The float is unscaled × math.Pow10(scale), rounding included.
    expect(valueOf('quantity("0.3").asApproximateFloat()')).toBe(0.30000000000000004);
    expect(valueOf('quantity("300m").asApproximateFloat()')).toBe(0.3);
    expect(valueOf('quantity("1e400").asApproximateFloat()')).toBe(Infinity);
    // Sub-nano values round up to 1n; BinarySI is capped at the largest int64.
    expect(valueOf('quantity("0.1n") == quantity("1n")')).toBe(true);
    expect(valueOf('quantity("16Ei") == quantity("9223372036854775807")')).toBe(true);
  });

  it('a dyn argument of the wrong type is a runtime "no such overload"', () => {
    const rule = compile('quantity(self.v).isInteger()', { type: 'object', properties: { v: { 'x-kubernetes-int-or-string': true } } });
    expect(rule.errors).toEqual([]);
    expect(rule.evaluate({ v: '5' })).toMatchObject({ valid: true });
    expect(rule.evaluate({ v: 5 })).toMatchObject({ valid: false, error: 'no such overload' });
  });

  it('add and sub results (Go *Quantity) only compare equal on the left of ==', () => {
    expect(valueOf('quantity("50k").add(20) == quantity("50020")')).toBe(true);
    expect(runtimeError('quantity("50020") == quantity("50k").add(20)')).toBe('no such overload');
    expect(runtimeError('quantity("1").add(1) != quantity("1").add(1)')).toBe('no such overload');
  });

  it('compile errors read as cel-go', () => {
    expect(compileError('quantity(1)')).toBe("ERROR: <input>:1:9: found no matching overload for 'quantity' applied to '(int)'\n | quantity(1)\n | ........^");
    expect(compileError('quantity("1").isGreaterThan(1)')).toContain("found no matching overload for 'isGreaterThan' applied to 'kubernetes.Quantity.(int)'");
    // sign is declared as a global function only.
    expect(compileError('quantity("1").sign()')).toContain("found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'");
    expect(compileError('quantity("1") < quantity("2")')).toContain("found no matching overload for '_<_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'");
    // The values are opaque: nothing to select.
    expect(compileError('quantity("1").q')).toContain("undefined field 'q'");
    expect(compileError('semver("1.0.0").major')).toContain("undefined field 'major'");
    expect(compileError('format.uri().name')).toContain("undefined field 'name'");
  });
});

describe('semver (semver_test.go)', () => {
  it('parses versions, with blang/semver error texts', () => {
    expect(valueOf('semver("1.2.3") == semver("1.2.3")')).toBe(true);
    expect(runtimeError('semver("v1.0")')).toBe('No Major.Minor.Patch elements found');
    expect(runtimeError('semver("")')).toBe('Version string empty');
    expect(runtimeError('semver("01.0.0")')).toBe('Major number must not contain leading zeroes "01"');
    expect(runtimeError('semver("1.x.0")')).toBe('Invalid character(s) found in minor number "x"');
    expect(runtimeError('semver("1.0.0-01")')).toBe('Numeric PreRelease version must not contain leading zeroes "01"');
    expect(runtimeError('semver("1.0.0+")')).toBe('Build meta data is empty');
    expect(runtimeError('semver("1..0")')).toBe('strconv.ParseUint: parsing "": invalid syntax');
    expect(runtimeError('semver("18446744073709551616.0.0")')).toBe('strconv.ParseUint: parsing "18446744073709551616": value out of range');
    expect(runtimeError('semver("1.0-beta", true)')).toBe('short version cannot contain PreRelease/Build meta data');
  });

  it('isSemver, with and without normalization', () => {
    const cases: Array<[string, boolean]> = [
      ['isSemver("1.2.3-beta.1+build.1")', true],
      ['isSemver("")', false],
      ['isSemver("v1.0.0")', false],
      ['isSemver(" 1.0.0")', false],
      ['isSemver("1. 0.0")', false],
      ['isSemver("1.0.0 ")', false],
      ['isSemver("01.01.01")', false],
      ['isSemver("1")', false],
      ['isSemver("1.1")', false],
      ['isSemver("", true)', false],
      ['isSemver(" 1.0.0", true)', false],
      ['isSemver("1. 0.0", true)', false],
      ['isSemver("1.0.0 ", true)', false],
      ['isSemver("v1.0.0", true)', true],
      ['isSemver("01.01.01", true)', true],
      ['isSemver("1", true)', true],
      ['isSemver("1.1", true)', true],
    ];
    for (const [expr, want] of cases) expect(valueOf(expr), expr).toBe(want);
    expect(compileError('isSemver([1, 2, 3])')).toContain("found no matching overload for 'isSemver' applied to '(list(int))'");
  });

  it('equality, ordering and components', () => {
    const cases: Array<[string, unknown]> = [
      ['semver("v01.01", true) == semver("1.1.0")', true],
      ['semver("1.2.3") == semver("1.0.0")', false],
      ['semver("1.0.0").isLessThan(semver("1.2.3"))', true],
      ['semver("1.0.0").isLessThan(semver("1.0.0"))', false],
      ['semver("1.2.3").isGreaterThan(semver("1.0.0"))', true],
      ['semver("1.0.0").isGreaterThan(semver("1.0.0"))', false],
      ['semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
      ['semver("1.0.0").compareTo(semver("1.2.3"))', -1n],
      ['semver("1.2.3").compareTo(semver("1.0.0"))', 1n],
      ['semver("1.2.3").major()', 1n],
      ['semver("1.2.3").minor()', 2n],
      ['semver("1.2.3").patch()', 3n],
      // Prereleases sort before the release; numeric identifiers before alphanumeric ones; build metadata is ignored.
      ['semver("1.0.0-alpha").isLessThan(semver("1.0.0"))', true],
      ['semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta"))', true],
      ['semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1"))', true],
      ['semver("1.0.0-rc.2").compareTo(semver("1.0.0-rc.10"))', -1n],
      ['semver("1.0.0+a") == semver("1.0.0+b")', true],
      // types.Int(uint64) wraps.
      ['semver("18446744073709551615.0.0").major()', -1n],
    ];
    for (const [expr, want] of cases) expect(valueOf(expr), expr).toBe(want);
  });
});

describe('format (format_test.go)', () => {
  const DNS1123_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  const DNS1123_SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const DNS1035_LABEL = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

  it('valid strings validate to optional.none()', () => {
    const valid = [
      'format.dns1123Label().validate("my-label-name")',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io")',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")',
      'format.dns1123LabelPrefix().validate("my-label-prefix-")',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")',
      'format.dns1035LabelPrefix().validate("my-label-prefix-")',
      'format.uri().validate("http://example.com")',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")',
      'format.byte().validate("aGVsbG8=")',
      'format.date().validate("2021-01-01")',
      'format.datetime().validate("2021-01-01T00:00:00Z")',
      'format.dns1123Subdomain().validate("example.com")',
      'format.dns1035Label().validate("my-label-name")',
      'format.qualifiedName().validate("my.name")',
      'format.labelValue().validate("my-cool-label-Value")',
    ];
    for (const expr of valid) expect(optionalValue(expr), expr).toBeUndefined();
  });

  it('invalid strings validate to the apiserver error texts', () => {
    const cases: Array<[string, string[]]> = [
      ['format.dns1123Label().validate("contains a space")', [DNS1123_LABEL]],
      ['format.dns1123Subdomain().validate("contains a space")', [DNS1123_SUBDOMAIN]],
      ['format.dns1035Label().validate("contains a space")', [DNS1035_LABEL]],
      ['format.qualifiedName().validate("contains a space")', ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
      ['format.dns1123LabelPrefix().validate("contains a space-")', [DNS1123_LABEL]],
      ['format.dns1123SubdomainPrefix().validate("contains a space-")', [DNS1123_SUBDOMAIN]],
      ['format.dns1035LabelPrefix().validate("contains a space-")', [DNS1035_LABEL]],
      ['format.byte().validate("aGVsbG8")', ['invalid base64']],
      ['format.date().validate("2020-01-32")', ['invalid date']],
      ['format.datetime().validate("2020-01-32T00:00:00Z")', ['invalid datetime']],
      ['format.uuid().validate("123e4567")', ['does not match the UUID format']],
      ['format.uri().validate("example.com/a b")', ['parse "example.com/a b": invalid URI for request']],
      [
        'format.labelValue().validate("my-cool-label-Value!!\\n\\n!!!")',
        ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
      ],
      ['format.dns1123Label().validate("a.b")', ['must not contain dots']],
    ];
    for (const [expr, want] of cases) expect(optionalValue(expr), expr).toEqual(want);
  });

  it('format.named looks formats up; equal formats are the same format', () => {
    const names = ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'];
    expect(valueOf('format.named("unknown").hasValue()')).toBe(false);
    for (const lhs of names) {
      expect(valueOf(`format.named("${lhs}").hasValue()`), lhs).toBe(true);
      expect(valueOf(`format.named("${lhs}").value() == format.${lhs}()`), lhs).toBe(true);
      for (const rhs of names) if (rhs !== lhs) expect(valueOf(`format.${lhs}() == format.${rhs}()`), `${lhs} == ${rhs}`).toBe(false);
    }
    expect(compileError('format.named(1)')).toBe("ERROR: <input>:1:13: found no matching overload for 'format.named' applied to '(int)'\n | format.named(1)\n | ............^");
  });
});

describe('costs (library/cost.go)', () => {
  const schema = {
    type: 'object',
    properties: { q: { type: 'string', maxLength: 20 }, a: { type: 'string', maxLength: 10 }, b: { type: 'string', maxLength: 10 }, name: { type: 'string', maxLength: 63 } },
  };

  it('estimates parsing as a string traversal and validate() as a regex match', () => {
    // A string of maxLength n is sized 4n bytes. quantity(self.q): select 2 + ceil(80 * 0.1); the literal 1; the call 1.
    expect(compile("quantity(self.q).isLessThan(quantity('1Gi'))", schema).cost).toBe(12);
    expect(compile('isSemver(self.q, true)', schema).cost).toBe(10);
    // validate: ceil(ceil(252 * 0.1) * MaxNameFormatRegexSize(128) * 0.25) = 832, + self.name 2, format.dns1123Label() 1, hasValue 1, ! 1.
    expect(compile('!format.dns1123Label().validate(self.name).hasValue()', schema).cost).toBe(837);
  });

  it('costs == on quantities and semvers at 1 and on formats by name size, but not !=', () => {
    expect(compile('quantity(self.a) == quantity(self.b)', schema).cost).toBe(13);
    expect(compile('semver(self.a) == semver(self.b)', schema).cost).toBe(13);
    expect(compile('format.uri() == format.labelValue()', schema).cost).toBe(1 + 1 + 7);
    // cost.go only special-cases `_==_`: `!=` on a value of unknown size is estimated as unbounded.
    expect(compile('quantity(self.a) != quantity(self.b)', schema).cost).toBeGreaterThan(1e18);
  });

  it('charges validate() by the string length and the format regex size at runtime', () => {
    const rule = compile('!format.dns1123Label().validate(self.name).hasValue()', { type: 'object', properties: { name: { type: 'string' } } });
    const short = rule.evaluate({ name: 'abcdefg' }).cost;
    const long = rule.evaluate({ name: 'a'.repeat(99) }).cost;
    // ceil((1 + len) * 0.1) * ceil(30 * 0.25): 1 * 8 for 7 characters, 10 * 8 for 99.
    expect(long - short).toBe(80 - 8);
  });
});

describe('through client-node: CRDs using the libraries', () => {
  let cluster: FakeCluster;
  beforeEach(async () => {
    cluster = await createFakeCluster();
  });
  afterEach(() => cluster.close());

  const create = (api: k8s.CustomObjectsApi, body: unknown) => api.createNamespacedCustomObject({ ...at, body: body as object });
  async function causesOf(call: Promise<unknown>): Promise<Array<{ field: string; reason: string; message: string }>> {
    const status = await expectStatus(call, { code: 422, reason: 'Invalid' });
    return (status.details as { causes: Array<{ field: string; reason: string; message: string }> }).causes;
  }

  it('quantity(): a memory limit below 1Gi, and an unparsable quantity', async () => {
    const rule = "quantity(self.memory).isLessThan(quantity('1Gi'))";
    const api = await installWidgets(cluster, specSchema({ memory: { type: 'string', maxLength: 20 } }, { 'x-kubernetes-validations': [{ rule, message: 'memory must be below 1Gi' }] }));
    await create(api, widget('ok', { memory: '512Mi' }));
    expect(await causesOf(create(api, widget('big', { memory: '2Gi' })))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: memory must be below 1Gi' }]);
    expect(await causesOf(create(api, widget('bad', { memory: '10Mo' })))).toEqual([
      {
        field: 'spec',
        reason: 'FieldValueInvalid',
        message: `Invalid value: "object": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule: memory must be below 1Gi`,
      },
    ]);
  });

  it('isSemver() and semver(): a normalized version at least 1.2', async () => {
    const rules = [
      { rule: 'isSemver(self.version, true)', message: 'must be a semantic version' },
      { rule: "!isSemver(self.version, true) || semver(self.version, true).compareTo(semver('1.2.0')) >= 0", messageExpression: "'version ' + self.version + ' is older than 1.2'" },
    ];
    const api = await installWidgets(cluster, specSchema({ version: { type: 'string', maxLength: 32 } }, { 'x-kubernetes-validations': rules }));
    await create(api, widget('ok', { version: 'v1.2' }));
    await create(api, widget('newer', { version: '1.10.0-rc.1' }));
    expect(await causesOf(create(api, widget('old', { version: '1.1.9' })))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: version 1.1.9 is older than 1.2' }]);
    expect(await causesOf(create(api, widget('bad', { version: 'one' })))).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: must be a semantic version' }]);
  });

  it('format.dns1123Label().validate(): the validation errors as the message', async () => {
    const rule = '!format.dns1123Label().validate(self).hasValue()';
    // `.value().join(...)` would not do: validate()'s list has no size bound, so the estimate is unbounded.
    const messageExpression = 'format.dns1123Label().validate(self).value()[0]';
    const api = await installWidgets(cluster, specSchema({ host: { type: 'string', maxLength: 63, 'x-kubernetes-validations': [{ rule, messageExpression }] } }));
    await create(api, widget('ok', { host: 'my-host' }));
    expect(await causesOf(create(api, widget('bad', { host: 'My_Host' })))).toEqual([
      {
        field: 'spec.host',
        reason: 'FieldValueInvalid',
        message: `Invalid value: "My_Host": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      },
    ]);
  });

  it('rejects a CRD whose rule calls a library function with the wrong argument type', async () => {
    const ext = cluster.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    const rule = 'quantity(self.memory).isGreaterThan(1)';
    const status = await expectStatus(
      ext.createCustomResourceDefinition({ body: clientCrd(widgetCrd(specSchema({ memory: { type: 'string', maxLength: 20 } }, { 'x-kubernetes-validations': [{ rule }] }))) }),
      { code: 422, reason: 'Invalid' },
    );
    expect((status.details as { causes: Array<{ field: string; message: string }> }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        message: `Invalid value: {"Rule":${JSON.stringify(rule)},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:36: found no matching overload for 'isGreaterThan' applied to 'kubernetes.Quantity.(int)'\n | ${rule}\n | ...................................^`,
      },
    ]);
  });
});
