// The CRD task-page scenarios of test/fixtures/crd-docs (pruning, validation, defaulting), checked at
// the engine level: decode (prune, nulls, defaults), then schema, embedded and list-type checks.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { fieldErrorBody, type FieldError } from '../errors/field-error.ts';
import { compileSchema } from './compile.ts';
import { decodeCustomResource } from './decode.ts';
import { validateEmbeddedResources } from './embedded.ts';
import { validateListTypes } from './list-type.ts';
import type { JSONSchemaProps } from './types.ts';
import { unknownFieldMessages } from './unknown-fields.ts';
import { validateValue } from './validate.ts';

interface Step {
  create?: Record<string, unknown>;
  query?: { fieldValidation?: string };
  expect: {
    code: number;
    object?: unknown;
    absent?: string[];
    causes?: { field: string; reason: string; message: string }[];
    causeFields?: string[];
    messageContains?: string;
    warnings?: string[];
  };
}
interface Scenario {
  name: string;
  manifests: { spec: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] } }[];
  steps: Step[];
}

const FIXTURES = new URL('../../test/fixtures/crd-docs/', import.meta.url);

function run(schema: JSONSchemaProps, body: Record<string, unknown>) {
  const compiled = compileSchema(schema);
  const obj = structuredClone(body);
  const decoded = decodeCustomResource(compiled, obj);
  const errors: FieldError[] = [...validateValue(compiled, obj), ...validateEmbeddedResources(compiled, obj), ...validateListTypes(compiled, obj)];
  return { obj, errors, unknown: unknownFieldMessages(decoded.unknownFields) };
}

function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

for (const file of ['pruning.yaml', 'validation.yaml', 'defaulting.yaml']) {
  const doc = load(readFileSync(new URL(file, FIXTURES), 'utf8')) as { scenarios: Scenario[] };
  describe(file, () => {
    for (const sc of doc.scenarios) {
      const schema = sc.manifests[0]!.spec.versions[0]!.schema.openAPIV3Schema;
      sc.steps.forEach((step, i) => {
        if (!step.create) return;
        it(`${sc.name} step ${i}`, () => {
          const r = run(schema, step.create!);
          const e = step.expect;
          const strict = step.query?.fieldValidation === 'Strict';
          if (e.code === 400 && strict) {
            expect(r.unknown.join(', ')).toContain(e.messageContains);
            return;
          }
          if (e.warnings) expect(r.unknown).toEqual(e.warnings);
          if (e.code === 201) {
            expect(r.errors).toEqual([]);
            if (e.object) expect(r.obj).toMatchObject(e.object as Record<string, unknown>);
            for (const p of e.absent ?? []) expect(get(r.obj, p)).toBeUndefined();
          } else {
            expect(e.code).toBe(422);
            const causes = r.errors.map((x) => ({ field: x.field, reason: x.type, message: fieldErrorBody(x) }));
            if (e.causes) expect(causes).toEqual(expect.arrayContaining(e.causes));
            if (e.causes) expect(causes).toHaveLength(e.causes.length);
            for (const f of e.causeFields ?? []) expect(causes.map((c) => c.field)).toContain(f);
          }
        });
      });
    }
  });
}
