// The committed printer docs are what scripts/gen-printer-docs.mjs makes of the OpenAPI
// definitions (no hand edits, no stale regeneration after the definitions or the wanted list change).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('scripts/gen-printer-docs.mjs', () => {
  it('regenerates src/generated/printer-docs.generated.ts byte for byte', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'printer-docs-')), 'printer-docs.generated.ts');
    const script = new URL('../scripts/gen-printer-docs.mjs', import.meta.url).pathname;
    const log = execFileSync(process.execPath, [script, '--out', out], { encoding: 'utf8' });
    expect(log).toMatch(/^wrote .*printer-docs\.generated\.ts: \d+ docs$/m);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(new URL('../src/generated/printer-docs.generated.ts', import.meta.url), 'utf8'));
  });
});
