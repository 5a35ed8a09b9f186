// The README's quick start, run as written: `npm start`'s output (npm's lines name the package.json
// scripts; the banner is kubefake serve's, from source), then the kubectl session in a second
// terminal with exactly the output the README shows. Only the port and the AGE column vary.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { codeBlocks } from './support/markdown.ts';
import { root, serve } from './support/serve.ts';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## In a test'));
const blocks = codeBlocks(quickStart);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** The README's text after `marker`: the first code block that follows it. */
function blockAfter(marker: string) {
  const at = quickStart.indexOf(marker);
  expect(at, `README quick start has no "${marker}"`).toBeGreaterThan(-1);
  return blocks.find((b) => quickStart.split('\n').slice(0, b.line - 1).join('\n').length >= at)!;
}
const normalise = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/ +\d+s$/gm, '   AGE');

describe.skipIf(!kubectlAvailable)('README quick start', () => {
  it('npm start prints what the README shows, and the kubectl session answers as shown', async () => {
    const started = blockAfter('`npm start` prints').body;
    expect(started).toContain(`> ${pkg.scripts.start}\n`);
    expect(started).toContain(`> ${pkg.scripts.build}\n`);
    const banner = started.slice(started.indexOf('kubefake is serving'));

    // npm start runs `kubefake serve` in the repository; here a scratch directory gets the kubeconfig.
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-readme-'));
    const run = serve(['serve'], dir);
    await run.ready;
    await expect.poll(() => run.output().stdout).toContain('Stop it with Ctrl-C.');
    try {
      expect(normalise(run.output().stdout)).toBe(normalise(banner));

      const session = blockAfter('In a second terminal');
      expect(session.lang).toBe('sh');
      const lines = session.body.trim().split('\n');
      expect(lines[0]).toBe('export KUBECONFIG=kubefake.kubeconfig');
      const kubectl = kubectlRunner(readFileSync(join(dir, 'kubefake.kubeconfig'), 'utf8'));
      let output = '';
      for (const line of lines.slice(1)) {
        const [command, ...args] = line.split(/\s+/);
        expect(command).toBe('kubectl');
        const result = await kubectl(args);
        expect(result.stderr, line).toBe('');
        expect(result.code, line).toBe(0);
        output += result.stdout;
      }
      const shown = blocks[blocks.indexOf(session) + 1]!;
      expect(normalise(output)).toBe(normalise(shown.body));
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  });
});
