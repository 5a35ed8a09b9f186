// The protobuf rendition of /openapi/v2, read back field by field with the project's own wire
// reader against the numbers of gnostic's OpenAPIv2.proto (Document, Paths, PathItem, Operation,
// Schema, Any); kubectl reading it is tested in test/openapi-kubectl.test.ts.
import { describe, expect, it } from 'vitest';
import { marshalYamlV3 } from '../../go/yaml-v3-marshal.ts';
import { swaggerToProtobuf } from './openapi-v2.ts';
import { WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT, WireReader } from './wire.ts';

type Fields = Map<number, Array<Uint8Array | number>>;

/** Every field of one message: bytes for length-delimited ones, numbers for varints and doubles. */
function fields(bytes: Uint8Array): Fields {
  const r = new WireReader(bytes);
  const out: Fields = new Map();
  while (!r.done) {
    const { field, wireType } = r.tag();
    const value = wireType === WIRE_BYTES ? r.bytes() : wireType === WIRE_VARINT ? Number(r.bool()) : wireType === WIRE_FIXED64 ? r.double() : NaN;
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}
const text = (v: Uint8Array | number | undefined) => new TextDecoder().decode(v as Uint8Array);
const one = (f: Fields, n: number) => f.get(n)?.[0] as Uint8Array;
const named = (f: Fields, n: number) => new Map((f.get(n) ?? []).map((pair) => [text(one(fields(pair as Uint8Array), 1)), one(fields(pair as Uint8Array), 2)]));

const doc = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.36.0' },
  paths: {
    '/api/v1/namespaces/{namespace}/configmaps': {
      get: {
        description: 'list or watch objects of kind ConfigMap',
        consumes: ['*/*'],
        produces: ['application/json'],
        parameters: [{ uniqueItems: true, type: 'string', name: 'continue', in: 'query' }, { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } }],
        responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMapList' } }, '401': { description: 'Unauthorized' } },
        'x-kubernetes-action': 'list',
        'x-kubernetes-group-version-kind': { group: '', kind: 'ConfigMap', version: 'v1' },
      },
      parameters: [{ uniqueItems: true, type: 'string', description: 'object name and auth scope', name: 'namespace', in: 'path', required: true }],
    },
  },
  definitions: {
    'io.k8s.api.core.v1.ConfigMap': {
      description: 'ConfigMap holds configuration data',
      type: 'object',
      properties: { data: { type: 'object', additionalProperties: { type: 'string', default: '' } }, immutable: { type: 'boolean' } },
      required: ['data'],
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
    },
  },
  securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
  security: [{ BearerToken: [] }],
};

describe('swaggerToProtobuf', () => {
  const document = fields(swaggerToProtobuf(doc));

  it('writes Document.swagger (1), info (2), paths (8), definitions (9), security (12) and securityDefinitions (13)', () => {
    expect(text(one(document, 1))).toBe('2.0');
    expect(text(one(fields(one(document, 2)), 1))).toBe('Kubernetes');
    expect([...document.keys()]).toEqual([1, 2, 8, 9, 12, 13]);
    const apiKey = one(fields(named(fields(one(document, 13)), 1).get('BearerToken')!), 2);
    expect(text(one(fields(apiKey), 2))).toBe('authorization');
    expect(text(one(fields(apiKey), 3))).toBe('header');
  });

  it('writes a path item with its operation, parameters by kind and responses by code', () => {
    const item = fields(named(fields(one(document, 8)), 2).get('/api/v1/namespaces/{namespace}/configmaps')!);
    // PathItem.parameters (9): ParametersItem.parameter (1) → Parameter.non_body_parameter (2) → path_parameter_sub_schema (4)
    const pathParam = fields(one(fields(one(fields(one(fields(one(item, 9)), 1)), 2)), 4));
    expect(text(one(pathParam, 4))).toBe('namespace');
    const get = fields(one(item, 2));
    expect(text(one(get, 3))).toBe('list or watch objects of kind ConfigMap');
    const [query, body] = get.get(8)!.map((p) => fields(one(fields(p as Uint8Array), 1)));
    expect(text(one(fields(one(fields(one(query!, 2)), 3)), 4))).toBe('continue'); // non-body → query sub-schema, name
    const bodyParam = fields(one(body!, 1)); // body_parameter
    expect(text(one(bodyParam, 2))).toBe('body');
    expect(bodyParam.get(4)).toEqual([1]); // required
    expect(text(one(fields(one(bodyParam, 5)), 1))).toBe('#/definitions/io.k8s.api.core.v1.ConfigMap'); // Schema._ref
    const responses = named(fields(one(get, 9)), 1);
    expect([...responses.keys()]).toEqual(['200', '401']);
    expect(text(one(fields(one(fields(responses.get('401')!), 1)), 1))).toBe('Unauthorized');
    const extensions = named(get, 13);
    expect(text(one(fields(extensions.get('x-kubernetes-action')!), 2))).toBe('list\n');
    expect(text(one(fields(extensions.get('x-kubernetes-group-version-kind')!), 2))).toBe('group: ""\nkind: ConfigMap\nversion: v1\n');
  });

  it('writes schemas: type as a string array, properties, additionalProperties, required, defaults and extensions as YAML', () => {
    const schema = fields(named(fields(one(document, 9)), 1).get('io.k8s.api.core.v1.ConfigMap')!);
    expect(text(one(fields(one(schema, 22)), 1))).toBe('object'); // TypeItem.value
    expect(schema.get(19)!.map(text)).toEqual(['data']); // required
    const properties = named(fields(one(schema, 25)), 1);
    const data = fields(properties.get('data')!);
    const valueSchema = fields(one(fields(one(data, 21)), 1)); // AdditionalPropertiesItem.schema
    expect(text(one(fields(one(valueSchema, 5)), 2))).toBe('""\n'); // default: Any.yaml
    expect(text(one(schema, 4))).toBe('ConfigMap holds configuration data');
    expect(text(one(fields(named(schema, 31).get('x-kubernetes-group-version-kind')!), 2))).toBe('- group: ""\n  kind: ConfigMap\n  version: v1\n');
  });
});

describe('marshalYamlV3', () => {
  // Expectations from go-yaml v3.0.4 encode_test.go where it has the case, else from emitterc.go's rules.
  it.each([
    ['', '""\n'],
    ['Pod', 'Pod\n'],
    ['true', '"true"\n'],
    ['1.5', '"1.5"\n'],
    [true, 'true\n'],
    [3, '3\n'],
    [{}, '{}\n'],
    [['a', 'b'], '- a\n- b\n'],
    [{ a: { b: ['c'] } }, 'a:\n    b:\n        - c\n'],
    [{ a: { b: [{ c: 1, d: 2 }] } }, 'a:\n    b:\n        - c: 1\n          d: 2\n'],
  ])('%j', (value, yaml) => {
    expect(marshalYamlV3(value)).toBe(yaml);
  });

  it('writes text with a line break as a literal block, its content at the next indent', () => {
    expect(marshalYamlV3({ v: ['A', 'B\nC'] })).toBe('v:\n    - A\n    - |-\n      B\n      C\n');
    expect(marshalYamlV3({ a: '\tB\n\tC\n' })).toBe('a: |\n    \tB\n    \tC\n');
    // Chomping and indentation indicators (write_block_scalar_hints); a following key is not pushed down.
    expect(marshalYamlV3({ a: 'x\n\n', b: 1 })).toBe('a: |+\n    x\n\nb: 1\n');
    expect(marshalYamlV3({ a: ' x\ny' })).toBe('a: |4-\n     x\n    y\n');
    // The block goes to the next multiple of 4 past the mapping (at 2 inside the item), not past the key.
    expect(marshalYamlV3([{ a: 'x\ny' }])).toBe('- a: |-\n    x\n    y\n');
    expect(marshalYamlV3('x\ny')).toBe('|-\n    x\n    y\n');
    // A space before a break cannot stand in a block: double quotes.
    expect(marshalYamlV3({ a: 'x \ny' })).toBe('a: "x \\ny"\n');
  });

  it('double-quotes only text v3 would read back as another type; other text plain, else single-quoted', () => {
    expect(marshalYamlV3({ a: 'a: b', b: '-', c: "it's 1", d: 'x #y' })).toBe("a: 'a: b'\nb: '-'\nc: it's 1\nd: 'x #y'\n");
    // Timestamps, base-0 integers, underscores, YAML floats resolve as such (resolve.go)...
    expect(marshalYamlV3({ t: '2015-02-24T18:19:39Z', d: '2024-1-2', h: '0x1F', u: '1_000', o: '08', f: '.5', n: '-.inf' })).toBe(
      't: "2015-02-24T18:19:39Z"\nd: "2024-1-2"\nh: "0x1F"\nu: "1_000"\no: "08"\nf: ".5"\nn: "-.inf"\n',
    );
    // ...while YAML 1.1 bools and base-60 numbers, a date that does not exist and a float past
    // float64 are strings to v3's resolver, so a node keeps them plain (only Go strings get isOldBool quoting).
    expect(marshalYamlV3({ y: 'yes', off: 'off', b60: '1:20', date: '2023-02-29', big: '1e999' })).toBe('y: yes\noff: off\nb60: 1:20\ndate: 2023-02-29\nbig: 1e999\n');
  });

  it('escapes as yaml does in double quotes, keeping printable Unicode', () => {
    expect(marshalYamlV3({ a: '\u0000', b: '你好', c: '\u{1F600}', d: '\u0085x', e: 'x\ty', f: '\u00a0x' })).toBe('a: "\\0"\nb: 你好\nc: "\\U0001F600"\nd: "\\Nx"\ne: "x\\ty"\nf: \u00a0x\n');
  });

  it('aligns a mapping value to the next multiple of 4, also inside a sequence item', () => {
    expect(marshalYamlV3([{ a: { b: 1 } }])).toBe('- a:\n    b: 1\n');
  });
});
