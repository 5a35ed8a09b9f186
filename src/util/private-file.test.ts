import { lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePrivateFile } from './private-file.ts';

describe('writePrivateFile', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'kubefake-private-'));

  it('writes a new file, or replaces a wider-readable one, with mode 0600 and leaves no temporary file', async () => {
    const d = dir();
    await writePrivateFile(join(d, 'new'), 'secret');
    writeFileSync(join(d, 'old'), 'stale', { mode: 0o666 });
    await writePrivateFile(join(d, 'old'), 'fresh');
    for (const [name, text] of [['new', 'secret'], ['old', 'fresh']]) {
      expect(statSync(join(d, name!)).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(d, name!), 'utf8')).toBe(text);
    }
    expect(readdirSync(d).sort()).toEqual(['new', 'old']);
  });

  it('refuses a symlink (even a dangling one) and a directory at the path', async () => {
    const d = dir();
    writeFileSync(join(d, 'target'), 'keep');
    symlinkSync(join(d, 'target'), join(d, 'link'));
    symlinkSync(join(d, 'nowhere'), join(d, 'dangling'));
    await expect(writePrivateFile(join(d, 'link'), 'x')).rejects.toThrow(`refusing to write ${join(d, 'link')}: it is a symbolic link`);
    await expect(writePrivateFile(join(d, 'dangling'), 'x')).rejects.toThrow('it is a symbolic link');
    await expect(writePrivateFile(d, 'x')).rejects.toThrow('it is not a regular file');
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep');
    expect(lstatSync(join(d, 'dangling')).isSymbolicLink()).toBe(true);
    expect(readdirSync(d).sort()).toEqual(['dangling', 'link', 'target']);
  });
});
