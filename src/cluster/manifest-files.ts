// Reads manifests from files and directories (YAML or JSON; directories in name order, recursively).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

export async function readManifestPaths(paths: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const path of paths) {
    const info = await stat(path);
    if (info.isDirectory()) {
      const entries = (await readdir(path)).sort();
      texts.push(...(await readManifestPaths(entries.map((e) => join(path, e)).filter((p) => MANIFEST_FILE.test(p) || !/\.[^/]+$/.test(p)))));
    } else {
      texts.push(await readFile(path, 'utf8'));
    }
  }
  return texts;
}
