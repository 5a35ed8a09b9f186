// The structural schema engine on a custom resource with 50 spec fields (strings with pattern and
// maxLength, bounded integers with defaults, enums, set lists, small objects): decoding (prune,
// nulls, embedded metadata, defaults), OpenAPI validation alone, and the read-path defaulting of
// a stored object. Run alone with `node bench/schema.ts`; `npm run bench` includes its section.
import { compileSchema, decodeCustomResource, validateEmbeddedResources, validateListTypes, validateValue, withDefaults } from '../src/schema/index.ts';
import type { JSONSchemaProps } from '../src/schema/index.ts';
import { deepFreeze } from '../src/util/deep-freeze.ts';

function fixture() {
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
  return { compiled, body };
}

/** Mean µs per call of `fn` over `n` calls, after a warm-up. */
function perCall(n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(n, 2000); i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t0) * 1000) / n;
}

export interface SchemaBench {
  validateUs: number;
  decodeAndValidateUs: number;
  cloneUs: number;
  readDefaultsUs: number;
  errors: number;
}

export function measureSchema(n = 20000): SchemaBench {
  const { compiled, body } = fixture();
  let errors = 0;
  const decodeAndValidateUs = perCall(n, () => {
    const obj = structuredClone(body) as Record<string, unknown>;
    decodeCustomResource(compiled, obj);
    errors += validateValue(compiled, obj).length + validateEmbeddedResources(compiled, obj).length + validateListTypes(compiled, obj).length;
  });
  const cloneUs = perCall(n, () => structuredClone(body));
  const decoded = structuredClone(body) as Record<string, unknown>;
  decodeCustomResource(compiled, decoded);
  const validateUs = perCall(n, () => (errors += validateValue(compiled, decoded).length));
  // A stored object missing every default (as after a CRD update that added them).
  const stored = deepFreeze(structuredClone(body));
  const readDefaultsUs = perCall(n, () => withDefaults(stored, compiled.root));
  return { validateUs, decodeAndValidateUs, cloneUs, readDefaultsUs, errors };
}

/** Markdown for RESULTS.md. */
export async function schemaSection(): Promise<string> {
  const r = measureSchema();
  const us = (v: number) => v.toFixed(1);
  return `## Schema engine

One custom resource with 50 spec fields (patterns, bounds, defaults, enums, set lists, nested objects), one
unknown field; mean per call in one process, after a warm-up.

| case | µs per call |
| --- | ---: |
| OpenAPI validation (\`validateValue\`) | ${us(r.validateUs)} |
| decode (prune, nulls, embedded metadata, defaults) + validation + list types, incl. the body copy | ${us(r.decodeAndValidateUs)} |
| of which copying the body (\`structuredClone\`) | ${us(r.cloneUs)} |
| read-path defaulting of a stored object (\`withDefaults\`, copy-on-write) | ${us(r.readDefaultsUs)} |

Errors found: ${r.errors} (must be 0). Target: validating a 50-field object costs under 50 µs.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await schemaSection());
  process.exit(0);
}
