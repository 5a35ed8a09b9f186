// RFC 7386 JSON merge patch: objects merge recursively, null deletes, everything else replaces.
import { isPlainObject } from '../apis/object.ts';
import { getOwn, setOwn } from '../util/own-property.ts';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, applyMergePatch(getOwn(out, key), value));
  }
  return out;
}
