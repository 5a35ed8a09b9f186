// google/cel-spec simple conformance files through `kubefake/cel` (runner in cel-spec/run.ts). The
// failing non-protobuf cases are listed in cel-spec/known-failures.txt with their reason: the test
// fails when one of them starts passing (drop it from the list) or a new one fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILES, runFile, type CaseResult } from './cel-spec/run.ts';

const KNOWN = new Set(
  readFileSync(new URL('./cel-spec/known-failures.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(': ')[0]!),
);

describe('cel-spec conformance', () => {
  const results = new Map<string, CaseResult[]>(FILES.map((f) => [f, runFile(f)]));

  for (const [file, cases] of results) {
    it(`${file}: only the known non-protobuf cases fail`, () => {
      const failing = cases.filter((c) => !c.proto && !c.passed).map((c) => c.name);
      const fixed = [...KNOWN].filter((n) => n.startsWith(`${file}/`) && cases.some((c) => c.name === n && c.passed));
      expect(failing.filter((n) => !KNOWN.has(n)), 'new failures').toEqual([]);
      expect(fixed, 'now passing: remove from known-failures.txt').toEqual([]);
    });
  }

  it('passes at least 97% of the non-protobuf cases', () => {
    const all = [...results.values()].flat().filter((c) => !c.proto);
    expect(all.filter((c) => c.passed).length / all.length).toBeGreaterThanOrEqual(0.97);
  });
});
