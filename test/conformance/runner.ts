// Conformance runner: every scenario of a shared fixture file runs against a fresh fake cluster, each
// step through @kubernetes/client-node, checked against the outcome a real kube-apiserver gave.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { describe, test } from 'vitest';
import { createFakeCluster } from '../../src/index.ts';
import { customKindsOf, executeStep, type StepContext } from './client-steps.ts';
import { parseFixture, type Fixture, type Scenario, type Step, type StepAction } from './fixture-types.ts';
import { KNOWN_GAPS } from './known-gaps.ts';
import { checkOutcome } from './matchers.ts';

/** The scenario fixtures vendored in the repository (test/fixtures/crd-docs, see its README.md). */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/crd-docs/', import.meta.url));

/** How long an `eventually: true` step is retried, and how often. */
export const EVENTUALLY_MS = 5_000;
const RETRY_EVERY_MS = 100;

export function loadFixture(name: string, dir: string = FIXTURES_DIR): Fixture {
  const file = `${dir.replace(/\/$/, '')}/${name}.yaml`;
  return parseFixture(load(readFileSync(file, 'utf8')), `${name}.yaml`);
}

/** Executes one step and checks it; with `eventually`, retries until it matches or the time is up. */
export async function runStep(ctx: StepContext, step: Step & { action: StepAction }): Promise<void> {
  const deadline = Date.now() + (step.eventually ? EVENTUALLY_MS : 0);
  for (;;) {
    try {
      checkOutcome(step.expect, await executeStep(ctx, step));
      return;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}

function hasAction(step: Step): step is Step & { action: StepAction } {
  return step.action !== undefined;
}

/**
 * The fixtures' `default` namespace is the run's: the test's own on a real cluster. Manifests name
 * it in `metadata.namespace`; an expectation (`deep`) anywhere in the expected object.
 */
function inRunNamespace<T>(values: T[], namespace: string, deep = false): T[] {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (record.namespace === 'default') record.namespace = namespace;
    if (deep) Object.values(record).forEach(visit);
    else visit(record.metadata);
  };
  values.forEach(visit);
  return values;
}

/** Runs a whole scenario on its own cluster; throws on the first step that does not match. */
export async function runScenario(scenario: Scenario): Promise<void> {
  // A scenario with nothing to execute must not pass vacuously: it fails and is listed as a known gap.
  if (scenario.unsupported.length > 0) {
    throw new Error(`scenario uses ${scenario.unsupported.map((k) => `\`${k}\``).join(', ')}, outside the fixture format; nothing to execute`);
  }
  if (scenario.steps.length === 0) throw new Error(`scenario has no steps; only a note: ${scenario.note ?? '(none)'}`);
  const cluster = await createFakeCluster();
  try {
    if (scenario.manifests.length > 0) {
      try {
        // Copies: the cluster and client-node may default fields in what they are given.
        await cluster.apply(cluster.namespace === 'default' ? structuredClone(scenario.manifests) : inRunNamespace(structuredClone(scenario.manifests), cluster.namespace));
      } catch (err) {
        throw new Error(`applying the manifests failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
    }
    const ctx: StepContext = { kc: cluster.kubeConfig, customKinds: customKindsOf(scenario), namespace: cluster.namespace };
    for (const [i, step] of scenario.steps.entries()) {
      if (!hasAction(step)) throw new Error(`step ${i + 1} has no verb, only a note: ${step.note ?? '(none)'}`);
      try {
        await runStep(ctx, cluster.namespace === 'default' ? step : { ...step, expect: inRunNamespace([structuredClone(step.expect)], cluster.namespace, true)[0]! });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(`step ${i + 1} (${step.action.verb}${step.eventually ? ', eventually' : ''}): ${message}`, { cause: err });
      }
    }
  } finally {
    await cluster.close();
  }
}

/**
 * One vitest test per scenario of `fixtures/crd-docs/<fixtureName>.yaml`. A scenario listed in
 * KNOWN_GAPS runs as `test.fails`: green while it still fails, red once it passes (then drop the entry).
 */
export function defineFixtureTests(fixtureName: string, gaps: Readonly<Record<string, string>> = KNOWN_GAPS): void {
  const fixture = loadFixture(fixtureName);
  describe(fixtureName, () => {
    for (const scenario of fixture.scenarios) {
      const gap = gaps[`${fixtureName}/${scenario.name}`];
      if (gap === undefined) test(scenario.name, () => runScenario(scenario));
      else test.fails(scenario.name, () => runScenario(scenario));
    }
    test('known gaps name existing scenarios', ({ expect }) => {
      const names = new Set(fixture.scenarios.map((s) => `${fixtureName}/${s.name}`));
      const stale = Object.keys(gaps).filter((k) => k.startsWith(`${fixtureName}/`) && !names.has(k));
      expect(stale, 'known-gaps.ts lists scenarios this fixture does not have').toEqual([]);
    });
  });
}
