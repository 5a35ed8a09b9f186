import { describe, expect, it } from 'vitest';
import { JsonPath, JsonPathError } from './jsonpath.ts';
import { goJson } from '../errors/go-format.ts';
import { goFormatG } from './format-float.ts';
import { printJsonPathValue } from './print.ts';

const first = (template: string, data: unknown): unknown[] => new JsonPath(template).findResults(data)[0]!;

const pod = {
  metadata: { name: 'p', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'redis' }] },
  status: {
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', count: 2 },
    ],
  },
};

describe('JsonPath (client-go util/jsonpath, missing keys allowed)', () => {
  it('walks fields, indexes, slices, wildcards and unions', () => {
    expect(first('{.metadata.name}', pod)).toEqual(['p']);
    expect(first('{.spec.containers[1].image}', pod)).toEqual(['redis']);
    expect(first('{.spec.containers[-1].name}', pod)).toEqual(['b']);
    expect(first('{.spec.containers[*].name}', pod)).toEqual(['a', 'b']);
    expect(first('{.spec.containers[0:1].name}', pod)).toEqual(['a']);
    expect(first('{.spec.containers[0,1].image}', pod)).toEqual(['nginx', 'redis']);
    // As in kubectl, dots inside ['...'] still split the key unless escaped.
    expect(first("{.metadata.labels['app.kubernetes.io/name']}", pod)).toEqual([]);
    expect(first("{.metadata.labels['app\\.kubernetes\\.io/name']}", pod)).toEqual(['web']);
    expect(first('{.metadata.labels.app\\.kubernetes\\.io/name}', pod)).toEqual(['web']);
    expect(first('{..image}', pod)).toEqual(['nginx', 'redis']);
  });

  it('filters arrays', () => {
    expect(first('{.status.conditions[?(@.type=="Ready")].status}', pod)).toEqual(['False']);
    expect(first("{.status.conditions[?(@.type!='Ready')].type}", pod)).toEqual(['Initialized']);
    expect(first('{.status.conditions[?(@.count)].type}', pod)).toEqual(['Ready']);
    expect(first('{.status.conditions[?(@.count>1)].type}', pod)).toEqual(['Ready']);
  });

  it('returns nothing for missing keys and errors where Go does', () => {
    expect(first('{.spec.missing.deeper}', pod)).toEqual([]);
    expect(() => first('{.spec.containers[5]}', pod)).toThrow(JsonPathError);
    expect(() => first('{.metadata[0]}', pod)).toThrow(JsonPathError);
    // int vs string comparison is "incompatible types for comparison"
    expect(() => first('{.status.conditions[?(@.count=="2")].type}', pod)).toThrow(JsonPathError);
    expect(() => new JsonPath('{.spec')).toThrow('unclosed action');
  });
});

describe('printing found values as Go does', () => {
  it('prints scalars with fmt and maps/slices with encoding/json', () => {
    expect(printJsonPathValue('x')).toBe('x');
    expect(printJsonPathValue(3)).toBe('3');
    // Past int64 apimachinery's util/json decodes a float64, which %v prints in 'g' form.
    expect(printJsonPathValue(1e20)).toBe('1e+20');
    expect(printJsonPathValue(9007199254740992)).toBe('9007199254740992');
    expect(printJsonPathValue(true)).toBe('true');
    expect(printJsonPathValue(null)).toBe('<no value>');
    expect(printJsonPathValue({ b: 1, a: ['<x>'] })).toBe('{"a":["\\u003cx\\u003e"],"b":1}');
  });

  it('formats floats like %v', () => {
    expect(goFormatG(0.5)).toBe('0.5');
    expect(goFormatG(123456.5)).toBe('123456.5');
    expect(goFormatG(1234567.5)).toBe('1.2345675e+06');
    expect(goFormatG(0.0001)).toBe('0.0001');
    expect(goFormatG(0.000015)).toBe('1.5e-05');
    expect(goFormatG(-2.25)).toBe('-2.25');
    expect(goJson(1.5e-7)).toBe('1.5e-7');
  });
});
