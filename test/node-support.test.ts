// The Node.js requirement (package.json engines) and the one sentence every entry point gives on an
// older Node: bin/kubefake.js and scripts/check-node.cjs (run with a pretended version), and
// createFakeCluster(). `.ci/run` runs the whole suite on the minimum itself.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const support = createRequire(import.meta.url)('../bin/node-support.cjs') as {
  RANGE: string;
  satisfies(version: string, range: string): boolean;
  unsupportedNodeMessage(version?: string, range?: string): string | undefined;
};

const SENTENCE_22_12 =
  'kubefake needs Node.js 22.22.2 or a later 22.x, 24.15.0 or a later 24.x, or 26.0.0 or later (package.json engines "^22.22.2 || ^24.15.0 || >=26.0.0"), but this is Node.js v22.12.0.';

/** Runs a script under this Node pretending to be `version`. */
function runAs(version: string, args: string[]) {
  return spawnSync(process.execPath, ['--require', `${root}test/support/pretend-node-version.cjs`, ...args], {
    cwd: root,
    env: { ...process.env, KUBEFAKE_PRETEND_NODE: version },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('the supported Node.js range', () => {
  it('is the one package.json states', () => {
    expect(support.RANGE).toBe(pkg.engines.node);
  });

  it.each([
    ['20.20.2', false],
    ['22.12.0', false],
    ['22.19.0', false],
    ['22.22.1', false],
    ['22.22.2', true],
    ['22.23.3', true],
    ['23.11.1', false],
    ['24.14.1', false],
    ['24.15.0', true],
    ['24.21.0', true],
    ['25.9.0', false],
    ['26.0.0', true],
    ['27.1.0', true],
  ])('Node.js %s supported: %s', (version, expected) => {
    expect(support.satisfies(version, pkg.engines.node)).toBe(expected);
    expect(support.unsupportedNodeMessage(version) === undefined).toBe(expected);
  });

  it('words the requirement as one sentence naming both versions', () => {
    expect(support.unsupportedNodeMessage('22.12.0')).toBe(SENTENCE_22_12);
    expect(support.unsupportedNodeMessage('v20.1.0', '>=22.0.0')).toBe(
      'kubefake needs Node.js 22.0.0 or later (package.json engines ">=22.0.0"), but this is Node.js v20.1.0.',
    );
  });

  it('refuses an engines range it cannot read instead of guessing', () => {
    expect(() => support.satisfies('24.0.0', '~22.1.0')).toThrow('cannot read the engines range "~22.1.0"');
    expect(() => support.satisfies('24.0.0', '>=22.12')).toThrow('cannot read the engines range ">=22.12"');
  });
});

describe('entry points on an unsupported Node.js', () => {
  it('bin/kubefake.js prints the sentence and exits 1 before loading the CLI', () => {
    const run = runAs('22.12.0', ['bin/kubefake.js', 'serve', '--manifests', 'examples/crontab']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`${SENTENCE_22_12}\n`);
    expect(run.stdout).toBe('');
  });

  it('scripts/check-node.cjs (first step of npm test and npm start) prints the sentence and exits 1', () => {
    const run = runAs('20.20.2', ['scripts/check-node.cjs']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`${support.unsupportedNodeMessage('20.20.2')}\n`);
    expect(run.stderr).toContain('but this is Node.js v20.20.2.');
  });

  it('scripts/check-node.cjs is silent and exits 0 on this Node', () => {
    const run = spawnSync(process.execPath, ['scripts/check-node.cjs'], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  describe('createFakeCluster()', () => {
    const real = Object.getOwnPropertyDescriptor(process.versions, 'node')!;
    afterEach(() => {
      Object.defineProperty(process.versions, 'node', real);
    });

    it('rejects with the sentence', async () => {
      Object.defineProperty(process.versions, 'node', { ...real, value: '22.12.0' });
      await expect(createFakeCluster()).rejects.toThrow(SENTENCE_22_12);
    });
  });
});
