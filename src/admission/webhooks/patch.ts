// A mutating webhook's JSONPatch applied to the object it was sent (mutating/dispatcher.go:
// jsonpatch.DecodePatch, then Patch.Apply on the object's JSON).
import { applyOperations, parseRawNodes, toOperation, type JsonPatchNode } from '../../patch/json-patch.ts';
import { parseGoJson } from '../../go/json.ts';
import type { KubeObject } from '../../apis/object.ts';

export type DecodedPatch = { ok: true; operations: ReturnType<typeof toOperation>[] } | { ok: false; error: string };

function nodeKind(n: JsonPatchNode): string {
  if (n.t === 'doc') return 'object';
  if (n.t === 'ary') return 'array';
  const raw = 'raw' in n && typeof n.raw === 'string' ? n.raw : 'null';
  if (raw.startsWith('"')) return 'string';
  if (raw === 'true' || raw === 'false') return 'bool';
  return 'number';
}

/** jsonpatch.DecodePatch: encoding/json into []map[string]*json.RawMessage. */
export function decodePatch(bytes: Uint8Array): DecodedPatch {
  const syntax = parseGoJson(bytes);
  if (!syntax.ok) return { ok: false, error: syntax.error };
  const root = parseRawNodes(bytes);
  if (root !== null && root.t !== 'ary') return { ok: false, error: `json: cannot unmarshal ${nodeKind(root)} into Go value of type jsonpatch.Patch` };
  const elements = root === null ? [] : root.ary;
  for (const el of elements) {
    if (el !== null && el.t !== 'doc') return { ok: false, error: `json: cannot unmarshal ${nodeKind(el)} into Go value of type jsonpatch.Operation` };
  }
  return { ok: true, operations: elements.map(toOperation) };
}

/** Patch.Apply: the patched object, or the library's error text. */
export function applyPatch(operations: DecodedPatch & { ok: true }, obj: KubeObject): { ok: true; value: unknown } | { ok: false; error: string } {
  const outcome = applyOperations(operations.operations, obj as Record<string, unknown>);
  if (outcome.ok) return outcome;
  return { ok: false, error: 'panic' in outcome ? String(outcome.panic.message) : outcome.error };
}
