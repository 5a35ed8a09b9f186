// Vectors from evanphx/json-patch v4 patch_test.go (Cases, BadCases, TestCases), plus the
// apiserver's wrapping of each failure (patch.go applyJSPatch).
import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status-error.ts';
import { applyPatch } from './index.ts';
import { applyOperations, parseRawNodes, toOperation } from './json-patch.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function run(doc: string, patch: string, copyLimit?: number) {
  const root = parseRawNodes(enc(patch));
  const ops = root && root.t === 'ary' ? root.ary.map(toOperation) : [];
  return applyOperations(ops, JSON.parse(doc) as Record<string, unknown>, copyLimit);
}

const ok = (doc: string, patch: string, copyLimit?: number): unknown => {
  const out = run(doc, patch, copyLimit);
  if (!out.ok) throw new Error('error' in out ? out.error : out.panic.message);
  return out.value;
};
const err = (doc: string, patch: string, copyLimit?: number): string => {
  const out = run(doc, patch, copyLimit);
  if (out.ok) throw new Error('patch applied');
  return 'error' in out ? out.error : `panic: ${out.panic.message}`;
};

const A48 = 'A'.repeat(48);
const A49 = 'A'.repeat(49);

describe('evanphx Cases (object documents)', () => {
  const cases: [string, string, unknown][] = [
    ['{ "foo": "bar"}', '[{ "op": "add", "path": "/baz", "value": "qux" }]', { baz: 'qux', foo: 'bar' }],
    ['{ "foo": [ "bar", "baz" ] }', '[{ "op": "add", "path": "/foo/1", "value": "qux" }]', { foo: ['bar', 'qux', 'baz'] }],
    ['{ "foo": [ "bar", "baz" ] }', '[{ "op": "add", "path": "/foo/-1", "value": "qux" }]', { foo: ['bar', 'baz', 'qux'] }],
    ['{ "baz": "qux", "foo": "bar" }', '[ { "op": "remove", "path": "/baz" } ]', { foo: 'bar' }],
    ['{ "foo": [ "bar", "qux", "baz" ] }', '[ { "op": "remove", "path": "/foo/1" } ]', { foo: ['bar', 'baz'] }],
    ['{ "baz": "qux", "foo": "bar" }', '[ { "op": "replace", "path": "/baz", "value": "boo" } ]', { baz: 'boo', foo: 'bar' }],
    [
      '{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }',
      '[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]',
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['{ "foo": [ "all", "grass", "cows", "eat" ] }', '[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]', { foo: ['all', 'cows', 'eat', 'grass'] }],
    ['{ "foo": [ "all", "grass", "cows", "eat" ] }', '[ { "op": "move", "from": "/foo/1", "path": "/foo/2" } ]', { foo: ['all', 'cows', 'grass', 'eat'] }],
    ['{ "foo": "bar" }', '[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]', { foo: 'bar', child: { grandchild: {} } }],
    ['{ "foo": ["bar"] }', '[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]', { foo: ['bar', ['abc', 'def']] }],
    ['{ "foo": "bar", "qux": { "baz": 1, "bar": null } }', '[ { "op": "remove", "path": "/qux/bar" } ]', { foo: 'bar', qux: { baz: 1 } }],
    ['{ "foo": "bar" }', '[ { "op": "add", "path": "/baz", "value": null } ]', { baz: null, foo: 'bar' }],
    ['{ "foo": ["bar","qux","baz"]}', '[ { "op": "replace", "path": "/foo/1", "value": "bum"}]', { foo: ['bar', 'bum', 'baz'] }],
    ['{ "foo": ["bar"]}', '[{"op": "copy", "path": "/foo/0", "from": "/foo"}]', { foo: [['bar'], 'bar'] }],
    ['{ "foo": ["bar","qux","baz"]}', '[ { "op": "remove", "path": "/foo/-2"}]', { foo: ['bar', 'baz'] }],
    ['{ "foo": []}', '[ { "op": "add", "path": "/foo/-1", "value": "qux"}]', { foo: ['qux'] }],
    ['{ "bar": [{"baz": null}]}', '[ { "op": "replace", "path": "/bar/0/baz", "value": 1 } ]', { bar: [{ baz: 1 }] }],
    ['{ "bar": [{"baz": 1}]}', '[ { "op": "replace", "path": "/bar/0/baz", "value": null } ]', { bar: [{ baz: null }] }],
    ['{ "bar": [null]}', '[ { "op": "replace", "path": "/bar/0", "value": 1 } ]', { bar: [1] }],
    ['{ "bar": [1]}', '[ { "op": "replace", "path": "/bar/0", "value": null } ]', { bar: [null] }],
    [
      '{ "id": "0", "parentID": "0" }',
      '[{ "op": "test", "path": "", "value": { "id": "0", "parentID": "0" } }, { "op": "replace", "path": "", "value": { "id": "7", "originalID": "bar", "parentID": "0" } }]',
      { id: '7', originalID: 'bar', parentID: '0' },
    ],
  ];
  it.each(cases)('%s + %s', (doc, patch, want) => {
    expect(ok(doc, patch)).toEqual(want);
  });

  it('counts copied bytes against the limit (quotes included)', () => {
    const doc = JSON.stringify({ foo: ['A', A48] });
    const patch = '[{ "op": "copy", "path": "/foo/-", "from": "/foo/1" }, { "op": "copy", "path": "/foo/-", "from": "/foo/1" }]';
    expect(ok(doc, patch, 100)).toEqual({ foo: ['A', A48, A48, A48] });
    expect(err(JSON.stringify({ foo: ['A', A49] }), patch, 100)).toBe(
      'Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100',
    );
  });
});

describe('evanphx BadCases, with their texts', () => {
  const cases: [string, string, string][] = [
    ['{ "foo": "bar" }', '[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]', 'add operation does not apply: doc is missing path: "/baz/bat": missing value'],
    ['{ "a": { "b": { "d": 1 } } }', '[ { "op": "remove", "path": "/a/b/c" } ]', "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value"],
    ['{ "a": { "b": { "d": 1 } } }', '[ { "op": "move", "from": "/a/b/c", "path": "/a/b/e" } ]', "error in move for path: 'c': Unable to remove nonexistent key: c: missing value"],
    ['{ "a": { "b": [1] } }', '[ { "op": "remove", "path": "/a/b/1" } ]', "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced"],
    ['{ "a": { "b": [1] } }', '[ { "op": "move", "from": "/a/b/1", "path": "/a/b/2" } ]', "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced"],
    ['{ "foo": "bar" }', '[ { "op": "add", "pathz": "/baz", "value": "qux" } ]', 'add operation failed to decode path: missing value'],
    ['{ "foo": "bar" }', '[ { "op": "add", "path": "", "value": "qux" } ]', 'add operation does not apply: doc is missing path: "": missing value'],
    ['{ "foo": ["bar","baz"]}', '[ { "op": "replace", "path": "/foo/2", "value": "bum"}]', 'replace operation does not apply: doc is missing key: /foo/2: missing value'],
    ['{ "foo": ["bar","baz"]}', '[ { "op": "add", "path": "/foo/-4", "value": "bum"}]', "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced"],
    ['{ "name":{ "foo": "bat", "qux": "bum"}}', '[ { "op": "replace", "path": "/foo/bar", "value":"baz"}]', 'replace operation does not apply: doc is missing path: /foo/bar: missing value'],
    ['{ "foo": ["bar"]}', '[ {"op": "add", "path": "/foo/2", "value": "bum"}]', "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced"],
    ['{ "foo": []}', '[ {"op": "remove", "path": "/foo/-"}]', 'error in remove for path: \'/foo/-\': strconv.Atoi: parsing "-": invalid syntax'],
    ['{ "foo": []}', '[ {"op": "remove", "path": "/foo/-1"}]', "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced"],
    ['{ "foo": ["bar"]}', '[ {"op": "remove", "path": "/foo/-2"}]', "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced"],
    ['{}', '[ {"op":null,"path":""} ]', 'Unexpected kind: unknown'],
    ['{}', '[ {"op":"add","path":null} ]', 'add operation failed to decode path: missing value'],
    ['{}', '[ { "op": "copy", "from": null }]', 'copy operation failed to decode from: operation, missing from field: missing value'],
    ['{ "foo": ["bar"]}', '[{"op": "copy", "path": "/foo/6666666666", "from": "/"}]', "error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced"],
    ['{ "foo": ["bar"]}', '[{"op": "copy", "path": "/foo/2", "from": "/foo/0"}]', 'error while adding value during copy: Unable to access invalid index: 2: invalid index referenced'],
    ['{ "foo": [ "all", "grass", "cows", "eat" ] }', '[ { "op": "move", "from": "/foo/1", "path": "/foo/4" } ]', "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced"],
    ['{}', '[ { "op": "frob", "path": "/a" } ]', 'Unexpected kind: frob'],
    ['{}', '[ { "op": "replace", "path": "", "value": 1 } ]', 'replace operation value must be object or array: %!w(<nil>)'],
  ];
  it.each(cases)('%s + %s', (doc, patch, want) => {
    expect(err(doc, patch)).toBe(want);
  });
});

describe('evanphx TestCases (the test op)', () => {
  const cases: [string, string, string | null][] = [
    ['{ "baz": "qux", "foo": [ "a", 2, "c" ] }', '[{ "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": 2 }]', null],
    ['{ "baz": "qux" }', '[ { "op": "test", "path": "/baz", "value": "bar" } ]', '/baz'],
    ['{ "baz": "qux", "foo": ["a", 2, "c"] }', '[{ "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": "c" }]', '/foo/1'],
    ['{ "baz": "qux" }', '[ { "op": "test", "path": "/foo", "value": 42 } ]', '/foo'],
    ['{ "baz": "qux" }', '[ { "op": "test", "path": "/foo", "value": null } ]', null],
    ['{ "foo": null }', '[ { "op": "test", "path": "/foo", "value": null } ]', null],
    ['{ "foo": {} }', '[ { "op": "test", "path": "/foo", "value": null } ]', '/foo'],
    ['{ "foo": [] }', '[ { "op": "test", "path": "/foo", "value": null } ]', '/foo'],
    ['{ "baz/foo": "qux" }', '[ { "op": "test", "path": "/baz~1foo", "value": "qux"} ]', null],
    ['{ "foo": [] }', '[ { "op": "test", "path": "/foo"} ]', '/foo'],
    ['{ "baz": [] }', '[ { "op": "test", "path": "/foo"} ]', null],
  ];
  it.each(cases)('%s + %s', (doc, patch, failedPath) => {
    if (failedPath === null) expect(run(doc, patch).ok).toBe(true);
    else expect(err(doc, patch)).toBe(`testing value ${failedPath} failed: test failed`);
  });

  it('compares scalars by their raw JSON bytes, the document side as Go encodes it', () => {
    expect(err('{ "n": 1 }', '[{ "op": "test", "path": "/n", "value": 1.0 }]')).toBe('testing value /n failed: test failed');
    expect(err('{ "s": "a" }', '[{ "op": "test", "path": "/s", "value": "\\u0061" }]')).toBe('testing value /s failed: test failed');
    // Go's encoder escapes <, > and & in the current object; a literal "<" in the patch differs.
    expect(err('{ "s": "<a>" }', '[{ "op": "test", "path": "/s", "value": "<a>" }]')).toBe('testing value /s failed: test failed');
    expect(run('{ "s": "<a>" }', '[{ "op": "test", "path": "/s", "value": "\\u003ca\\u003e" }]').ok).toBe(true);
    expect(run('{ "o": { "b": 1, "a": [true, "x"] } }', '[{ "op": "test", "path": "/o", "value": {"a": [true, "x"], "b": 1} }]').ok).toBe(true);
  });

  it('panics when a compared array holds null', () => {
    expect(err('{ "a": [null] }', '[{ "op": "test", "path": "/a", "value": [null] }]')).toBe('panic: runtime error: invalid memory address or nil pointer dereference');
  });
});

describe('v4 quirks', () => {
  it('replace of a missing object key adds it', () => {
    expect(ok('{}', '[{ "op": "replace", "path": "/a", "value": 1 }]')).toEqual({ a: 1 });
  });
  it('a path without a leading slash loses its first segment', () => {
    expect(ok('{ "x": {} }', '[{ "op": "add", "path": "x/y", "value": 1 }]')).toEqual({ x: {}, y: 1 });
  });
  it('unescapes ~1 and ~0 once, left to right', () => {
    expect(ok('{}', '[{ "op": "add", "path": "/a~01b~1c", "value": 1 }]')).toEqual({ 'a~1b/c': 1 });
  });
  it('accepts Atoi forms such as +1 and 01', () => {
    expect(ok('{ "a": [1, 2, 3] }', '[{ "op": "remove", "path": "/a/+1" }, { "op": "remove", "path": "/a/01" }]')).toEqual({ a: [1] });
  });
});

const target = { group: 'apps', version: 'v1', kind: 'Deployment', unstructured: false };
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1 } };
const status = (fn: () => unknown): StatusError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no error');
};

describe('applyPatch("json") as patch.go wraps it', () => {
  it('applies, leaving the current object untouched', () => {
    const body = enc('[{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels/tier","value":"front"}]');
    const out = applyPatch('json', deployment, body, target);
    expect(out.spec).toEqual({ replicas: 3 });
    expect(out.metadata).toEqual({ name: 'web', labels: { app: 'web', tier: 'front' } });
    expect(deployment.spec.replicas).toBe(1);
  });

  it('a failed operation is a bare 422: the library text is not sent', () => {
    const e = status(() => applyPatch('json', deployment, enc('[{"op":"test","path":"/spec/replicas","value":2}]'), target));
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
    expect((e.cause as Error).message).toBe('testing value /spec/replicas failed: test failed');
    const missing = status(() => applyPatch('json', deployment, enc('[{"op":"remove","path":"/spec/x"}]'), target));
    expect((missing.cause as Error).message).toBe("error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value");
  });

  it('undecodable bodies are 400s, prefixed under Warn/Strict (the default) but not under Ignore', () => {
    expect(status(() => applyPatch('json', deployment, enc('{"op":"add"}'), target)).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    });
    expect(status(() => applyPatch('json', deployment, enc('{"op":"add"}'), target, { fieldValidation: 'Ignore' })).message).toBe(
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
    expect(status(() => applyPatch('json', deployment, enc('[1]'), target, { fieldValidation: 'Ignore' })).message).toBe(
      'json: cannot unmarshal number into Go value of type jsonpatch.Operation',
    );
    expect(status(() => applyPatch('json', deployment, enc('[{"op":1}]'), target)).message).toBe(
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
    );
    expect(status(() => applyPatch('json', deployment, enc('[{'), target)).message).toBe('error decoding patch: unexpected end of JSON input');
    expect(status(() => applyPatch('json', deployment, enc('[x]'), target, { fieldValidation: 'Ignore' })).message).toBe(
      "invalid character 'x' looking for beginning of value",
    );
  });

  it('more than 10000 operations is a 413', () => {
    const ops = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Deployment' })));
    expect(status(() => applyPatch('json', deployment, enc(ops), target)).status).toMatchObject({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
  });

  it('strict findings fail Strict with the patched object as value, and are dropped by Warn', () => {
    const body = enc('[{"op":"add","path":"/spec/paused","value":true,"foo":1}]');
    expect(applyPatch('json', deployment, body, target).spec).toEqual({ replicas: 1, paused: true });
    const e = status(() => applyPatch('json', deployment, body, target, { fieldValidation: 'Strict' }));
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\",\\"metadata\\":{\\"labels\\":{\\"app\\":\\"web\\"},\\"name\\":\\"web\\"},\\"spec\\":{\\"paused\\":true,\\"replicas\\":1}}": strict decoding error: json patch unknown field "[0].foo"',
    );
  });

  it('a whole-document replace by an array cannot be decoded', () => {
    const e = status(() => applyPatch('json', deployment, enc('[{"op":"replace","path":"","value":[1]}]'), target));
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      ' "" is invalid: patch: Invalid value: "[1]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
  });
});
