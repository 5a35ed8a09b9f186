// The README and docs/ cannot drift from the code: every TypeScript or JavaScript block in them is a
// copy of a file of the repository, named by a `<!-- file: PATH -->` line right above it, and those
// files run in the suite (docs/examples/*.test.ts by Vitest, examples/jest by Jest). Every docs page
// has at least one such example, every docs example is shown somewhere, every page is linked from
// the README, and every relative link points at a file that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks } from './support/markdown.ts';

const root = new URL('..', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** Pages with no API to show, so no example: why, per page. */
const NO_EXAMPLE: Record<string, string> = { 'docs/development.md': 'commands, requirements and CI only' };
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('codeBlocks', () => {
  it('reads blocks with and without a file marker', () => {
    expect(codeBlocks('text\n<!-- file: a.ts -->\n```ts\nx;\n```\n```sh\nls\n```\n')).toEqual([
      { lang: 'ts', body: 'x;\n', line: 3, file: 'a.ts' },
      { lang: 'sh', body: 'ls\n', line: 6 },
    ]);
  });

  it('refuses an unclosed block', () => {
    expect(() => codeBlocks('```ts\nx;\n')).toThrow('line 1: unclosed code block');
  });
});

describe.each(pages)('%s', (page) => {
  const blocks = codeBlocks(read(page));

  it('shows TypeScript and JavaScript only as copies of files that run in the suite', () => {
    const code = blocks.filter((b) => b.lang === 'ts' || b.lang === 'js');
    for (const block of code) {
      expect(block.file, `${page}:${block.line}: a ${block.lang} block needs a <!-- file: PATH --> line above it`).toBeDefined();
      expect(block.file!, `${page}:${block.line}`).toMatch(/^(docs\/examples\/[\w-]+\.test\.ts|examples\/jest\/[\w.-]+\.(js|ts))$/);
      expect(block.body, `${page}:${block.line} differs from ${block.file}`).toBe(read(block.file!));
    }
    if (page.startsWith('docs/') && !(page in NO_EXAMPLE)) expect(code.length, `${page} has no runnable example`).toBeGreaterThan(0);
  });

  it('links only to files that exist', () => {
    for (const [, target] of read(page).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      expect(existsSync(join(root, dirname(page), target!)), `${page} links to ${target}`).toBe(true);
    }
  });
});

it('every docs example is shown in a page, and every page is linked from the README', () => {
  const shown = new Set(pages.flatMap((p) => codeBlocks(read(p)).flatMap((b) => (b.file ? [b.file] : []))));
  for (const f of readdirSync(join(root, 'docs/examples')).filter((f) => f.endsWith('.test.ts'))) expect(shown, `docs/examples/${f} is in no page`).toContain(`docs/examples/${f}`);
  const readme = read('README.md');
  for (const page of pages.filter((p) => p.startsWith('docs/'))) expect(readme, `README does not link ${page}`).toContain(`](${relative(root, join(root, page))})`);
});
