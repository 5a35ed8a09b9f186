import { describe, expect, it } from 'vitest';
import { encodeGoJson } from '../go/json-encode.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { encodeBodyJson as encodeBody, jsonOf } from './object-json.ts';

const encodeBodyJson = (body: unknown): string => {
  const encoded = encodeBody(body);
  return typeof encoded === 'string' ? encoded : Buffer.from(encoded).toString('utf8');
};

const item = (name: string) => deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, annotations: { a: '<b>&</b>\u2028' } }, data: { k: 'x' } });

describe('encodeBodyJson', () => {
  it('writes the bytes encodeGoJson writes for a list: key order, HTML escaping, items, trailing newline', () => {
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { continue: '', resourceVersion: '7', note: '<&>' }, items: [item('a'), item('b')] };
    const text = encodeBodyJson(list);
    expect(text).toBe(encodeGoJson(list));
    expect(text).toContain('\\u003cb\\u003e\\u0026\\u003c/b\\u003e\\u2028');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('leaves out undefined members and writes an empty list as []', () => {
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1', continue: undefined }, gone: undefined, items: [] };
    expect(encodeBodyJson(list)).toBe(encodeGoJson(list));
    expect(encodeBodyJson(list)).toBe('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}\n');
  });

  it('reuses a frozen item\'s text and serialises an unfrozen one every time', () => {
    const frozen = item('c');
    const first = jsonOf(frozen);
    expect(jsonOf(frozen)).toBe(first);
    const open = { metadata: { name: 'd' } };
    expect(encodeBodyJson({ items: [open] })).toBe('{"items":[{"metadata":{"name":"d"}}]}\n');
    open.metadata.name = 'e';
    expect(encodeBodyJson({ items: [open] })).toBe('{"items":[{"metadata":{"name":"e"}}]}\n');
  });

  it('encodes bodies without items as encodeGoJson does', () => {
    for (const body of [{ kind: 'Status', message: 'a <b>' }, [1, 'x'], 'text', null, item('f')]) expect(encodeBodyJson(body)).toBe(encodeGoJson(body));
  });
});

describe('encodeBodyJson of a list', () => {
  it('answers a fresh buffer per call: changing one leaves the next list and the item cache alone', () => {
    const list = { kind: 'ConfigMapList', items: [item('g')] };
    const first = encodeBody(list) as Uint8Array;
    first.fill(0x20);
    expect(encodeBodyJson(list)).toBe(encodeGoJson(list));
  });
});
