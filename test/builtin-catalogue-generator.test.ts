// The committed catalogue is what the generator makes of the vendored inputs (no hand edits, no
// stale regeneration).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('scripts/gen-builtin-catalogue.mjs', () => {
  it('regenerates src/generated/builtin-catalogue.ts byte for byte from scripts/upstream/v1.36', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'catalogue-')), 'builtin-catalogue.ts');
    const script = new URL('../scripts/gen-builtin-catalogue.mjs', import.meta.url).pathname;
    const log = execFileSync(process.execPath, [script, 'scripts/upstream/v1.36', '--out', out], { encoding: 'utf8' });
    expect(log).toMatch(/68 resources in 21 groups; 27 hashes checked/);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(new URL('../src/generated/builtin-catalogue.ts', import.meta.url), 'utf8'));
  });
});
