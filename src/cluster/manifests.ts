// Turns what users pass to apply() into a flat list of objects: YAML text (multi-document),
// an object, or an array of either; `List` kinds are expanded.
import { loadAll, YAML11_SCHEMA } from 'js-yaml';
import { isPlainObject, type KubeObject } from '../apis/object.ts';

export type Manifests = string | KubeObject | ReadonlyArray<string | KubeObject>;

export function parseManifests(input: Manifests): KubeObject[] {
  const out: KubeObject[] = [];
  const add = (value: unknown) => {
    if (value === null || value === undefined) return;
    if (!isPlainObject(value)) throw new TypeError(`kubefake: a manifest must be an object, got ${JSON.stringify(value)}`);
    if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) value.items.forEach(add);
    else out.push(value as KubeObject);
  };
  const visit = (item: string | KubeObject) => {
    if (typeof item === 'string') loadAll(item, { schema: YAML11_SCHEMA }).forEach(add);
    else add(item);
  };
  if (Array.isArray(input)) input.forEach(visit);
  else visit(input as string | KubeObject);
  return out;
}
