// Turns what users pass to apply() into a flat list of objects: YAML or JSON text (multi-document),
// file and directory paths, objects, or an array of any of these; `List` kinds are expanded.
import { fileURLToPath } from 'node:url';
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import { goYamlDocumentsToJson } from '../go/yaml.ts';
import { readManifestFiles } from './manifest-files.ts';

/**
 * One manifest source: YAML/JSON text (a string with a newline, or a one-line `{…}`/`key: value`
 * document), a path to a file or directory (any other string, or a `file:` URL), or an object.
 */
export type ManifestSource = string | URL | KubeObject;

/** A manifest source or a list of them, applied in order. */
export type Manifests = ManifestSource | ReadonlyArray<ManifestSource>;

/** Every form apply() accepts, files and directories included. */
export async function loadManifests(input: Manifests): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const item of sources(input)) {
    if (item instanceof URL || (typeof item === 'string' && isPath(item))) {
      const path = item instanceof URL ? fileURLToPath(item) : item;
      for (const file of await readManifestFiles([path])) {
        try {
          out.push(...parseText(file.text));
        } catch (err) {
          throw new TypeError(`kubefake: ${file.path}: ${(err as Error).message.replace(/^kubefake: /, '')}`, { cause: err });
        }
      }
    } else if (typeof item === 'string') out.push(...parseText(item));
    else out.push(...expand(item));
  }
  return out;
}

/** A single line that is neither a JSON object/array nor a `key: value` YAML mapping names a file. */
export function isPath(text: string): boolean {
  const line = text.trim();
  if (line === '' || line.includes('\n')) return false;
  if (/^[{[]/.test(line) || line.startsWith('---')) return false;
  return !/^[^\s:]+:(\s|$)/.test(line);
}

function sources(input: Manifests): ReadonlyArray<ManifestSource> {
  return Array.isArray(input) ? input : [input as ManifestSource];
}

function parseText(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  // As kubectl reads a manifest: YAML 1.1 per document, aliases bounded as go-yaml bounds them.
  const decoded = goYamlDocumentsToJson(text);
  if (!decoded.ok) throw new TypeError(`kubefake: ${decoded.tooDeep ? 'a manifest nested deeper than kubefake supports: ' : ''}${decoded.error}`);
  for (const doc of decoded.values) out.push(...expand(doc));
  return out;
}

/** An object, or the items of a `…List`; empty documents are skipped. */
function expand(value: unknown): KubeObject[] {
  if (value === null || value === undefined) return [];
  if (!isPlainObject(value)) throw new TypeError(`kubefake: a manifest must be an object, got ${JSON.stringify(value)}`);
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) return value.items.flatMap(expand);
  return [value as KubeObject];
}
