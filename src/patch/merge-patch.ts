// RFC 7386 JSON merge patch as jsonpatch.MergePatch (evanphx json-patch v4) applies it. The RFC
// core is applyMergePatch below; evanphx differs in one way, reproduced here by rewriting
// the patch first: when a patch value is not merged into an existing object (the key is absent,
// null or not an object), pruneNulls drops null members of objects at any depth, including objects
// inside arrays ({"a":[{"x":null}]} yields a: [{}]); RFC 7386 keeps array contents verbatim.
import { isPlainObject } from '../apis/object.ts';
import { getOwn, setOwn } from '../util/own-property.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: objects merge recursively, null deletes, everything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, applyMergePatch(getOwn(out, key), value));
  }
  return out;
}

/** mergeDocs on a document and an object patch. */
export function evanphxMergePatch(doc: Json, patch: Json): Json {
  return applyMergePatch(doc, evanphxPatch(doc, patch)) as Json;
}

function evanphxPatch(cur: Json, patch: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(patch)) {
    const c = getOwn(cur, k);
    if (v === null) setOwn(out, k, null);
    else if (!isObject(c)) setOwn(out, k, pruneNulls(v));
    else if (isObject(v)) setOwn(out, k, evanphxPatch(c, v));
    else setOwn(out, k, v); // merge(): an object replaced by a non-object patch value keeps it raw
  }
  return out;
}

function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === null ? null : pruneNulls(x)));
  if (!isObject(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) setOwn(out, k, pruneNulls(x));
  return out;
}
