// Micro benchmark of the schema engine: decode (prune, nulls, defaults) + validate of a CR with 50
// spec fields. Run: node bench/schema.ts
import { compileSchema, decodeCustomResource, validateEmbeddedResources, validateListTypes, validateValue } from '../src/schema/index.ts';
import type { JSONSchemaProps } from '../src/schema/index.ts';

const props: Record<string, JSONSchemaProps> = {};
const spec: Record<string, unknown> = {};
for (let i = 0; i < 50; i++) {
  switch (i % 5) {
    case 0: props[`s${i}`] = { type: 'string', maxLength: 64, pattern: '^[a-z0-9-]+$' }; spec[`s${i}`] = `value-${i}`; break;
    case 1: props[`n${i}`] = { type: 'integer', minimum: 0, maximum: 1000, default: 5 }; spec[`n${i}`] = i; break;
    case 2: props[`e${i}`] = { type: 'string', enum: ['a', 'b', 'c'] }; spec[`e${i}`] = 'b'; break;
    case 3: props[`l${i}`] = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }; spec[`l${i}`] = ['x', 'y']; break;
    default: props[`o${i}`] = { type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'number', default: 1.5 } } }; spec[`o${i}`] = { a: true }; break;
  }
}
const compiled = compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: props, required: ['s0'] } } });
const body = { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x', namespace: 'default' }, spec: { ...spec, unknown: 1 } };

function once(): number {
  const obj = structuredClone(body) as Record<string, unknown>;
  decodeCustomResource(compiled, obj);
  return validateValue(compiled, obj).length + validateEmbeddedResources(compiled, obj).length + validateListTypes(compiled, obj).length;
}

for (let i = 0; i < 2000; i++) once(); // warm up
const cloneOnly = (n: number): number => {
  const t = performance.now();
  for (let i = 0; i < n; i++) structuredClone(body);
  return performance.now() - t;
};
const N = 20000;
const t0 = performance.now();
let errs = 0;
for (let i = 0; i < N; i++) errs += once();
const total = performance.now() - t0;
const clone = cloneOnly(N);
console.log(`schema decode+validate, 50-field CR: ${((total * 1000) / N).toFixed(1)} µs/op (of which structuredClone ${((clone * 1000) / N).toFixed(1)} µs), errors=${errs}`);
const obj = structuredClone(body) as Record<string, unknown>;
decodeCustomResource(compiled, obj);
const t1 = performance.now();
for (let i = 0; i < N; i++) validateValue(compiled, obj);
console.log(`validateValue only: ${(((performance.now() - t1) * 1000) / N).toFixed(1)} µs/op`);
