// The scenarios of /work/shared/fixtures/crd-docs/structural-schema.yaml, run through the CRD
// validation. Two places where the fixture disagrees with the v1.36 source are asserted the way the
// source behaves and named as such (see the report):
// - paths: v1 -> internal conversion moves a schema shared by all versions to spec.validation, so
//   a single-version CRD reports `spec.validation.openAPIV3Schema...`, not `spec.versions[0].schema...`.
// - `additionalProperties: false` without `properties` is accepted since 1.11 (only the combination
//   with properties is forbidden); the task page's "cannot be set to false" is stale.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apis/object.ts';
import { validateCustomResourceDefinition } from './index.ts';
import { defaulted, messages } from './test-support.ts';

interface Step {
  create: KubeObject;
  expect: { code: number; reason?: string; causeFields?: string[] };
}
interface Scenario {
  name: string;
  steps: Step[];
}

const fixture = load(readFileSync('/work/shared/fixtures/crd-docs/structural-schema.yaml', 'utf8')) as { scenarios: Scenario[] };
const scenario = (name: string): Scenario => fixture.scenarios.find((s) => s.name === name)!;
const run = (step: Step): string[] => messages(validateCustomResourceDefinition(defaulted(step.create)));
/** The fixture's v1 path as the real server prints it for a schema shared by all versions. */
const asServed = (field: string): string => field.replace(/^spec\.versions\[0\]\.schema\./, 'spec.validation.');

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
    const fields = got.map((m) => m.slice(0, m.indexOf(': ')));
    for (const f of step.expect.causeFields!) expect(fields).toContain(asServed(f));
  });

  it('the structural twin is accepted', () => {
    expect(run(scenario('structural-twin-is-accepted').steps[0]!)).toEqual([]);
  });

  it('forbidden keywords: $ref (NewStructural fails too, but its error only shows when nothing else does)', () => {
    const step = scenario('forbidden-keywords').steps[0]!;
    expect(run(step)).toEqual(['spec.validation.openAPIV3Schema.properties[spec].properties[x].$ref: Forbidden: $ref is not supported']);
    expect(step.expect.causeFields!.map(asServed)).toEqual(['spec.validation.openAPIV3Schema.properties[spec].properties[x].$ref']);
  });

  it('forbidden keywords: additionalProperties: false alone is accepted by v1.36 (fixture expects 422)', () => {
    const step = scenario('forbidden-keywords').steps[1]!;
    expect(step.expect.code).toBe(422);
    expect(run(step)).toEqual([]);
  });

  it('forbidden keywords: uniqueItems: true', () => {
    expect(run(scenario('forbidden-keywords').steps[2]!)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
    ]);
  });

  it('forbidden keywords: additionalProperties together with properties', () => {
    expect(run(scenario('forbidden-keywords').steps[3]!)).toEqual([
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
