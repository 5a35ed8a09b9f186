// OpenAPI v3 validation of custom resources through the real client: one test per keyword a CRD
// schema may use, asserting the 422 message, the cause's field path and its cause type as
// apiextensions-apiserver reports them (kube-openapi pkg/validation texts, validation.go's
// translation into field errors; spec §2.3/§2.4).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { at, GROUP, installWidgets, KIND, specSchema, widget } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

interface Cause {
  field: string;
  reason: string;
  message: string;
}

const str = { type: 'string' };
const schema = specSchema({
  int: { type: 'integer' },
  num: { type: 'number' },
  bool: { type: 'boolean' },
  str,
  obj: { type: 'object', properties: { a: str } },
  arr: { type: 'array', items: str },
  intOrString: { 'x-kubernetes-int-or-string': true },
  int32: { type: 'integer', format: 'int32' },
  date: { type: 'string', format: 'date' },
  dateTime: { type: 'string', format: 'date-time' },
  uuid: { type: 'string', format: 'uuid' },
  ipv4: { type: 'string', format: 'ipv4' },
  ipv6: { type: 'string', format: 'ipv6' },
  cidr: { type: 'string', format: 'cidr' },
  email: { type: 'string', format: 'email' },
  hostname: { type: 'string', format: 'hostname' },
  mac: { type: 'string', format: 'mac' },
  byte: { type: 'string', format: 'byte' },
  duration: { type: 'string', format: 'duration' },
  shortName: { type: 'string', format: 'k8s-short-name' },
  madeUpFormat: { type: 'string', format: 'no-such-format' },
  color: { type: 'string', enum: ['red', 'green'] },
  level: { type: 'integer', enum: [1, 2] },
  alpha: { type: 'string', pattern: '^[a-zA-Z0-9_]*$' },
  posix: { type: 'string', pattern: '^[[:alpha:]]+$' },
  caseless: { type: 'string', pattern: '(?i)^abc$' },
  threeRunes: { type: 'string', pattern: '^.{3}$' },
  replicas: { type: 'integer', minimum: 1, maximum: 10 },
  ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
  big: { type: 'number', maximum: 1000000 },
  step: { type: 'integer', multipleOf: 5 },
  half: { type: 'number', multipleOf: 0.5 },
  word: { type: 'string', minLength: 2, maxLength: 3 },
  list: { type: 'array', minItems: 1, maxItems: 2, items: str },
  props: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: str },
  req: { type: 'object', required: ['a', 'b'], properties: { a: str, b: str } },
  limits: { type: 'object', additionalProperties: { type: 'integer', maximum: 3 } },
  anyOfField: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] },
  oneOfField: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 1 }] },
  allOfField: { type: 'string', allOf: [{ minLength: 2 }, { pattern: '^x' }] },
  notField: { type: 'string', not: { enum: ['forbidden'] } },
  nullableStr: { type: 'string', nullable: true },
  nullableItems: { type: 'array', items: { type: 'string', nullable: true } },
  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
  ports: {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: { type: 'object', required: ['name'], properties: { name: str, port: { type: 'integer' } } },
  },
  routes: {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['host', 'path'],
    items: { type: 'object', required: ['host', 'path'], properties: { host: str, path: str, weight: { type: 'integer' } } },
  },
  atomicMap: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string', maxLength: 2 } },
  granularMap: { type: 'object', 'x-kubernetes-map-type': 'granular', properties: { a: { type: 'integer', maximum: 1 } } },
  template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
});

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;
let seq = 0;
beforeAll(async () => {
  cluster = await createFakeCluster();
  custom = await installWidgets(cluster, schema);
});
afterAll(() => cluster.close());

const create = (spec: Record<string, unknown>, name = `w${++seq}`) => custom.createNamespacedCustomObject({ ...at, body: widget(name, spec) });
const byFieldAndMessage = (a: Cause, b: Cause) => (a.field + a.message < b.field + b.message ? -1 : 1);

/** Creates a widget with `spec` and checks the 422: its causes (any order) and the rendered message. */
async function expectInvalid(spec: Record<string, unknown>, causes: Cause[]): Promise<void> {
  const name = `bad${++seq}`;
  const status = await expectStatus(create(spec, name), { code: 422, reason: 'Invalid' });
  const details = status.details as { name: string; group: string; kind: string; causes: Cause[] };
  expect({ name: details.name, group: details.group, kind: details.kind }).toEqual({ name, group: GROUP, kind: KIND });
  expect([...details.causes].sort(byFieldAndMessage)).toEqual([...causes].sort(byFieldAndMessage));
  const prefix = `${KIND}.${GROUP} "${name}" is invalid: `;
  const rendered = causes.map((c) => `${c.field}: ${c.message}`);
  if (causes.length === 1) expect(status.message).toBe(prefix + rendered[0]);
  else for (const r of rendered) expect(status.message).toContain(r);
}

const invalid = (field: string, message: string): Cause => ({ field, reason: 'FieldValueInvalid', message });
const typeInvalid = (field: string, message: string): Cause => ({ field, reason: 'FieldValueTypeInvalid', message });

async function expectValid(spec: Record<string, unknown>): Promise<void> {
  const created = (await create(spec)) as { spec: unknown };
  expect(created.spec).toEqual(spec);
}

describe('type', () => {
  it('reports the JSON type it got, as TypeInvalid', async () => {
    await expectInvalid({ int: 'three' }, [typeInvalid('spec.int', 'Invalid value: "string": spec.int in body must be of type integer: "string"')]);
    await expectInvalid({ str: 5 }, [typeInvalid('spec.str', 'Invalid value: "integer": spec.str in body must be of type string: "integer"')]);
    await expectInvalid({ bool: 'true' }, [typeInvalid('spec.bool', 'Invalid value: "string": spec.bool in body must be of type boolean: "string"')]);
    await expectInvalid({ obj: [] }, [typeInvalid('spec.obj', 'Invalid value: "array": spec.obj in body must be of type object: "array"')]);
    await expectInvalid({ arr: {} }, [typeInvalid('spec.arr', 'Invalid value: "object": spec.arr in body must be of type array: "object"')]);
  });

  it('integer vs number: a fraction is no integer, an integer is a number', async () => {
    await expectInvalid({ int: 1.5 }, [
      typeInvalid('spec.int', 'Invalid value: "number": spec.int in body must be of type integer: "number"'),
      invalid('<nil>', 'Invalid value: "": Checked value must be of type integer (default format) in spec.int'),
    ]);
    await expectValid({ num: 3, int: 4 });
    // 2.0 arrives as the integer 2 once parsed, as Go's decoder makes it an int64.
    await expectValid({ int: 2.0 });
  });

  it('int-or-string takes both and nothing else', async () => {
    await expectValid({ intOrString: 3 });
    await expectValid({ intOrString: '30%' });
    await expectInvalid({ intOrString: true }, [
      typeInvalid('spec.intOrString', 'Invalid value: "boolean": spec.intOrString in body must be of type integer,string: "boolean"'),
    ]);
  });

  it('an int32 field refuses a value outside int32', async () => {
    await expectInvalid({ int32: 2147483648 }, [invalid('<nil>', 'Invalid value: "": Checked value must be of type integer with format int32 in spec.int32')]);
    await expectValid({ int32: 2147483647 });
  });
});

describe('format', () => {
  const cases: Array<[field: string, format: string, good: string, bad: string]> = [
    ['date', 'date', '2024-02-29', '2023-02-29'],
    ['dateTime', 'date-time', '2024-01-01T10:00:00Z', '2024-01-01 10:00'],
    ['uuid', 'uuid', '123e4567-e89b-12d3-a456-426614174000', 'not-a-uuid'],
    ['ipv4', 'ipv4', '10.0.0.1', '10.0.0.256'],
    ['ipv6', 'ipv6', 'fe80::1', 'fe80:::1'],
    ['cidr', 'cidr', '10.0.0.0/8', '10.0.0.0/33'],
    ['email', 'email', 'someone@example.com', 'someone'],
    ['hostname', 'hostname', 'my-host.example.com', 'bad_host!'],
    ['mac', 'mac', '00:1a:2b:3c:4d:5e', '00:1a:2b'],
    ['byte', 'byte', 'aGVsbG8=', 'not base64!'],
    ['duration', 'duration', '1h30m', 'soon'],
    ['shortName', 'k8s-short-name', 'my-name', 'My_Name'],
  ];
  it.each(cases)('%s (format %s) checks the string and names the format', async (field, format, good, bad) => {
    await expectValid({ [field]: good });
    await expectInvalid({ [field]: bad }, [typeInvalid(`spec.${field}`, `Invalid value: ${JSON.stringify(bad)}: spec.${field} in body must be of type ${format}: ${JSON.stringify(bad)}`)]);
  });

  it('a format CRDs do not honour is dropped, so any string passes', async () => {
    await expectValid({ madeUpFormat: 'anything at all' });
  });

  it('a number where a formatted string is expected names the format', async () => {
    await expectInvalid({ date: 5 }, [typeInvalid('spec.date', 'Invalid value: "int64": spec.date in body must be of type date: "int64"')]);
  });
});

describe('enum', () => {
  it('is NotSupported with the supported values quoted, non-strings JSON-encoded', async () => {
    await expectInvalid({ color: 'blue' }, [{ field: 'spec.color', reason: 'FieldValueNotSupported', message: 'Unsupported value: "blue": supported values: "red", "green"' }]);
    await expectInvalid({ level: 3 }, [{ field: 'spec.level', reason: 'FieldValueNotSupported', message: 'Unsupported value: 3: supported values: "1", "2"' }]);
    await expectValid({ color: 'green', level: 2 });
  });
});

describe('pattern (RE2)', () => {
  it('reports the pattern; the match is unanchored unless the pattern anchors it', async () => {
    await expectInvalid({ alpha: 'foo_123!' }, [invalid('spec.alpha', "Invalid value: \"foo_123!\": spec.alpha in body should match '^[a-zA-Z0-9_]*$'")]);
    await expectValid({ alpha: 'foo_123' });
  });

  it('uses RE2 syntax and semantics: POSIX classes, (?i) flags, `.` matches a rune', async () => {
    await expectValid({ posix: 'abc', caseless: 'ABC', threeRunes: '😀😀😀' });
    await expectInvalid({ posix: 'ab1' }, [invalid('spec.posix', "Invalid value: \"ab1\": spec.posix in body should match '^[[:alpha:]]+$'")]);
    await expectInvalid({ threeRunes: '😀😀' }, [invalid('spec.threeRunes', "Invalid value: \"😀😀\": spec.threeRunes in body should match '^.{3}$'")]);
  });
});

describe('numeric bounds', () => {
  it('minimum and maximum', async () => {
    await expectInvalid({ replicas: 15 }, [invalid('spec.replicas', 'Invalid value: 15: spec.replicas in body should be less than or equal to 10')]);
    await expectInvalid({ replicas: 0 }, [invalid('spec.replicas', 'Invalid value: 0: spec.replicas in body should be greater than or equal to 1')]);
    await expectValid({ replicas: 10 });
  });

  it('exclusive bounds refuse the bound itself', async () => {
    await expectInvalid({ ratio: 0 }, [invalid('spec.ratio', 'Invalid value: 0: spec.ratio in body should be greater than 0')]);
    await expectInvalid({ ratio: 1 }, [invalid('spec.ratio', 'Invalid value: 1: spec.ratio in body should be less than 1')]);
    await expectValid({ ratio: 0.5 });
  });

  it('a float value prints the bound as Go %v of a float64', async () => {
    await expectInvalid({ big: 1000000.5 }, [invalid('spec.big', 'Invalid value: 1.0000005e+06: spec.big in body should be less than or equal to 1e+06')]);
  });

  it('multipleOf, for integers and fractions', async () => {
    await expectInvalid({ step: 7 }, [invalid('spec.step', 'Invalid value: 7: spec.step in body should be a multiple of 5')]);
    await expectInvalid({ half: 0.7 }, [invalid('spec.half', 'Invalid value: 0.7: spec.half in body should be a multiple of 0.5')]);
    await expectValid({ step: 15, half: 2.5 });
  });
});

describe('string length (in runes)', () => {
  it('maxLength is TooLong without the value; minLength is Invalid', async () => {
    await expectInvalid({ word: 'abcd' }, [{ field: 'spec.word', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 3 bytes' }]);
    await expectInvalid({ word: 'a' }, [invalid('spec.word', 'Invalid value: "a": spec.word in body should be at least 2 chars long')]);
  });

  it('counts characters, not bytes', async () => {
    await expectValid({ word: '日本語' });
    await expectInvalid({ word: '日本語ab' }, [{ field: 'spec.word', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 3 bytes' }]);
    await expectInvalid({ word: '😀' }, [invalid('spec.word', 'Invalid value: "😀": spec.word in body should be at least 2 chars long')]);
  });
});

describe('collections', () => {
  it('minItems is Invalid with the count, maxItems is TooMany', async () => {
    await expectInvalid({ list: [] }, [invalid('spec.list', 'Invalid value: 0: spec.list in body should have at least 1 items')]);
    await expectInvalid({ list: ['a', 'b', 'c'] }, [{ field: 'spec.list', reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items' }]);
  });

  it('minProperties is Invalid with the count, maxProperties is TooMany', async () => {
    await expectInvalid({ props: {} }, [invalid('spec.props', 'Invalid value: 0: spec.props in body should have at least 1 properties')]);
    await expectInvalid({ props: { a: 'x', b: 'y', c: 'z' } }, [{ field: 'spec.props', reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items' }]);
  });

  it('required reports each missing property as Required', async () => {
    await expectInvalid({ req: {} }, [
      { field: 'spec.req.a', reason: 'FieldValueRequired', message: 'Required value' },
      { field: 'spec.req.b', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
    await expectValid({ req: { a: 'x', b: 'y' } });
  });

  it('additionalProperties validates every map value, the key joined with a dot', async () => {
    await expectInvalid({ limits: { cpu: 2, memory: 4 } }, [invalid('spec.limits.memory', 'Invalid value: 4: spec.limits.memory in body should be less than or equal to 3')]);
    await expectInvalid({ limits: { cpu: 'two' } }, [typeInvalid('spec.limits.cpu', 'Invalid value: "string": spec.limits.cpu in body must be of type integer: "string"')]);
  });

  it('x-kubernetes-map-type changes nothing in validation: granular and atomic maps validate their values', async () => {
    await expectInvalid({ atomicMap: { k: 'long' } }, [{ field: 'spec.atomicMap.k', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 2 bytes' }]);
    await expectInvalid({ granularMap: { a: 2 } }, [invalid('spec.granularMap.a', 'Invalid value: 2: spec.granularMap.a in body should be less than or equal to 1')]);
    await expectValid({ atomicMap: { k: 'ok' }, granularMap: { a: 1 } });
  });
});

describe('allOf, anyOf, oneOf, not', () => {
  it('anyOf: the composite error on <nil> plus the best alternative', async () => {
    await expectInvalid({ anyOfField: 'c' }, [
      invalid('<nil>', 'Invalid value: "": "spec.anyOfField" must validate at least one schema (anyOf)'),
      invalid('spec.anyOfField', "Invalid value: \"c\": spec.anyOfField in body should match '^a'"),
    ]);
    await expectValid({ anyOfField: 'bee' });
  });

  it('oneOf: none valid, and more than one valid', async () => {
    await expectInvalid({ oneOfField: 3 }, [
      invalid('<nil>', 'Invalid value: "": "spec.oneOfField" must validate one and only one schema (oneOf). Found none valid'),
      invalid('spec.oneOfField', 'Invalid value: 3: spec.oneOfField in body should be greater than or equal to 5'),
    ]);
    await expectValid({ oneOfField: 7 });
  });

  it('allOf: every failing sub-schema is reported', async () => {
    await expectInvalid({ allOfField: 'a' }, [
      invalid('<nil>', 'Invalid value: "": "spec.allOfField" must validate all the schemas (allOf). None validated'),
      invalid('spec.allOfField', 'Invalid value: "a": spec.allOfField in body should be at least 2 chars long'),
      invalid('spec.allOfField', "Invalid value: \"a\": spec.allOfField in body should match '^x'"),
    ]);
    await expectInvalid({ allOfField: 'ab' }, [
      invalid('<nil>', 'Invalid value: "": "spec.allOfField" must validate all the schemas (allOf)'),
      invalid('spec.allOfField', "Invalid value: \"ab\": spec.allOfField in body should match '^x'"),
    ]);
    await expectValid({ allOfField: 'xy' });
  });

  it('not', async () => {
    await expectInvalid({ notField: 'forbidden' }, [invalid('<nil>', 'Invalid value: "": "spec.notField" must not validate the schema (not)')]);
    await expectValid({ notField: 'allowed' });
  });
});

describe('nullable', () => {
  it('a nullable field keeps its null', async () => {
    await expectValid({ nullableStr: null, nullableItems: ['a', null] });
  });

  it('a null list item that is not nullable fails the type check', async () => {
    await expectInvalid({ arr: ['a', null] }, [typeInvalid('spec.arr[1]', 'Invalid value: "null": spec.arr[1] in body must be of type string: "null"')]);
  });

  it('a null non-nullable property is dropped before validation, not reported', async () => {
    const created = (await create({ str: null, int: 1 })) as { spec: unknown };
    expect(created.spec).toEqual({ int: 1 });
  });
});

describe('x-kubernetes-list-type', () => {
  it('set: the second occurrence of each repeated value is a Duplicate', async () => {
    await expectInvalid({ tags: ['a', 'b', 'a', 'b', 'a'] }, [
      { field: 'spec.tags[2]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"' },
      { field: 'spec.tags[3]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "b"' },
    ]);
    await expectValid({ tags: ['a', 'b'] });
  });

  it('map with one key: the duplicate shows its key', async () => {
    await expectInvalid({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 8080 }] }, [
      { field: 'spec.ports[1]', reason: 'FieldValueDuplicate', message: 'Duplicate value: {"name":"http"}' },
    ]);
  });

  it('map with several keys: all key fields are shown', async () => {
    await expectInvalid({ routes: [{ host: 'a', path: '/', weight: 1 }, { host: 'a', path: '/x' }, { path: '/', host: 'a', weight: 2 }] }, [
      { field: 'spec.routes[2]', reason: 'FieldValueDuplicate', message: 'Duplicate value: {"host":"a","path":"/"}' },
    ]);
    await expectValid({ routes: [{ host: 'a', path: '/' }, { host: 'b', path: '/' }] });
  });

  it('map: a non-object item is Invalid', async () => {
    await expectInvalid({ routes: [{ host: 'a', path: '/' }, 'x'] }, [
      typeInvalid('spec.routes[1]', 'Invalid value: "string": spec.routes[1] in body must be of type object: "string"'),
      invalid('spec.routes[1]', 'Invalid value: "x": must be an object for an array of list-type map'),
    ]);
  });
});

describe('x-kubernetes-embedded-resource', () => {
  it('requires apiVersion and kind', async () => {
    await expectInvalid({ template: { metadata: { name: 'x' } } }, [
      { field: 'spec.template.apiVersion', reason: 'FieldValueRequired', message: 'Required value' },
      { field: 'spec.template.kind', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('validates kind and the embedded metadata', async () => {
    await expectInvalid({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } } }, [
      invalid('spec.template.metadata.name', 'Invalid value: "a/b": may not contain \'/\''),
      invalid(
        'spec.template.metadata.labels',
        'Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      ),
    ]);
    await expectInvalid({ template: { apiVersion: 'v1', kind: '' } }, [invalid('spec.template.kind', 'Invalid value: "": must not be empty')]);
  });

  it('keeps a valid embedded object whole, and a non-string kind is a 400 decode error', async () => {
    await expectValid({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { anything: [1] } } });
    await expectStatus(create({ template: { apiVersion: 'v1', kind: 7 } }), {
      code: 400,
      reason: 'BadRequest',
      message: `${KIND} in version "v1" cannot be handled as a ${KIND}: spec.template.kind: Invalid value: 7: must be a string`,
    });
  });
});

describe('root checks', () => {
  it('kind and apiVersion must match the CRD, and then nothing else is checked', async () => {
    const body = { ...widget('wrongkind', { replicas: 99 }), kind: 'Gadget' };
    const status = await expectStatus(custom.createNamespacedCustomObject({ ...at, body }), { code: 422, reason: 'Invalid' });
    expect(status.message).toBe(`${KIND}.${GROUP} "wrongkind" is invalid: kind: Invalid value: "Gadget": must be ${KIND}`);
  });

  it('every schema error of one object is reported in one 422', async () => {
    await expectInvalid({ replicas: 11, color: 'blue', word: 'a' }, [
      invalid('spec.replicas', 'Invalid value: 11: spec.replicas in body should be less than or equal to 10'),
      { field: 'spec.color', reason: 'FieldValueNotSupported', message: 'Unsupported value: "blue": supported values: "red", "green"' },
      invalid('spec.word', 'Invalid value: "a": spec.word in body should be at least 2 chars long'),
    ]);
  });

  it('KubernetesObjectApi sees the same 422', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
    const body = { ...widget('via-object-api', { replicas: 15 }), metadata: { name: 'via-object-api', namespace: 'default' } };
    await expectStatus(objects.create(body), {
      code: 422,
      reason: 'Invalid',
      message: `${KIND}.${GROUP} "via-object-api" is invalid: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10`,
    });
  });
});
