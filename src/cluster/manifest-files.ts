// Reads manifests from files and directories: YAML or JSON files; directories in name order,
// recursively, skipping hidden entries and kustomization files (build instructions, not objects).
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;
const KUSTOMIZATION = /^kustomization\.ya?ml$/i;

export interface ManifestFile {
  path: string;
  text: string;
}

/** The manifest files under each path (a file is read whatever its extension), in order. */
export async function readManifestFiles(paths: readonly string[]): Promise<ManifestFile[]> {
  const files: ManifestFile[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (err) {
      throw new Error(`kubefake: cannot read manifests from ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
    }
    if (info.isDirectory()) files.push(...(await readDirectory(path)));
    else files.push({ path, text: await readFile(path, 'utf8') });
  }
  return files;
}

async function readDirectory(dir: string): Promise<ManifestFile[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: ManifestFile[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await readDirectory(path)));
    else if (MANIFEST_FILE.test(entry.name) && !KUSTOMIZATION.test(basename(path))) files.push({ path, text: await readFile(path, 'utf8') });
  }
  return files;
}
