// The scenarios of test/fixtures/crd-docs/structural-schema.yaml, run through the CRD validation
// directly (test/conformance/structural-schema.test.ts runs the same scenarios over the wire). The
// fixture follows the v1.36 source: v1 -> internal conversion moves a schema shared by all versions
// to spec.validation (apis/apiextensions/v1/conversion.go), so a single-version CRD reports
// `spec.validation.openAPIV3Schema...`; and `additionalProperties: false` is forbidden only at the
// root and beside `properties`, not on its own below the root (accepted since 1.11).
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apis/object.ts';
import { validateCustomResourceDefinition } from './index.ts';
import { defaulted, messages } from './test-support.ts';

interface Step {
  create?: KubeObject;
  expect: { code: number; reason?: string; messageContains?: string; causeFields?: string[] };
}
interface Scenario {
  name: string;
  steps: Step[];
}

const fixture = load(readFileSync(new URL('../../../test/fixtures/crd-docs/structural-schema.yaml', import.meta.url), 'utf8')) as { scenarios: Scenario[] };
const scenario = (name: string): Scenario => fixture.scenarios.find((s) => s.name === name)!;
const run = (step: Step): string[] => messages(validateCustomResourceDefinition(defaulted(step.create!)));
/** The create steps of a scenario, in order (forbidden-keywords deletes the CRD between two of them). */
const creates = (name: string): Step[] => scenario(name).steps.filter((s) => s.create !== undefined);
const fieldsOf = (msgs: string[]): string[] => msgs.map((m) => m.slice(0, m.indexOf(': ')));

describe('structural-schema.yaml', () => {
  it('non-structural example 3: one cause per violation, all six', () => {
    const step = scenario('non-structural-example-3-is-rejected').steps[0]!;
    const got = run(step);
    expect(got).toEqual([
      'spec.validation.openAPIV3Schema.anyOf[0].description: Forbidden: must be empty to be structural',
      'spec.validation.openAPIV3Schema.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural',
      'spec.validation.openAPIV3Schema.properties[bar]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[bar]',
      'spec.validation.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields',
      'spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      'spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root',
    ]);
    expect(step.expect.code).toBe(422);
    for (const f of step.expect.causeFields!) expect(fieldsOf(got)).toContain(f);
  });

  it('the structural twin is accepted', () => {
    const step = scenario('structural-twin-is-accepted').steps[0]!;
    expect(step.expect.code).toBe(201);
    expect(run(step)).toEqual([]);
  });

  it('forbidden keywords: $ref (NewStructural fails too, but its error only shows when nothing else does)', () => {
    const step = creates('forbidden-keywords')[0]!;
    expect(step.expect.code).toBe(422);
    expect(run(step)).toEqual(['spec.validation.openAPIV3Schema.properties[spec].properties[x].$ref: Forbidden: $ref is not supported']);
    expect(step.expect.causeFields).toEqual(['spec.validation.openAPIV3Schema.properties[spec].properties[x].$ref']);
  });

  it('forbidden keywords: additionalProperties: false alone below the root is accepted', () => {
    const step = creates('forbidden-keywords')[1]!;
    expect(step.expect.code).toBe(201);
    expect(run(step)).toEqual([]);
  });

  it('forbidden keywords: additionalProperties at the root is rejected', () => {
    const step = creates('forbidden-keywords')[2]!;
    expect(step.expect.code).toBe(422);
    const got = run(step);
    expect(got).toEqual(['spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root']);
    expect(got[0]).toContain(step.expect.messageContains!);
    expect(fieldsOf(got)).toEqual(step.expect.causeFields);
  });

  it('forbidden keywords: uniqueItems: true', () => {
    const step = creates('forbidden-keywords')[3]!;
    expect(step.expect.code).toBe(422);
    expect(run(step)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
    ]);
  });

  it('forbidden keywords: additionalProperties together with properties', () => {
    const step = creates('forbidden-keywords')[4]!;
    expect(step.expect.code).toBe(422);
    expect(run(step)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
    ]);
  });

  it('with two differing versions the per-version path is reported', () => {
    const step = scenario('non-structural-example-3-is-rejected').steps[0]!;
    const crd = structuredClone(step.create) as { spec: { versions: Record<string, unknown>[] } };
    crd.spec.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } });
    const got = messages(validateCustomResourceDefinition(defaulted(crd as KubeObject)));
    expect(got).toContain('spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root');
    expect(got).toContain('spec.versions[0].schema.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields');
  });
});
