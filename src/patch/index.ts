// The PATCH engines of apiserver/pkg/endpoints/handlers/patch.go (not server-side apply):
// JSON patch, JSON merge patch and strategic merge patch, with the status codes and texts the
// apiserver answers for each failure.
import { goJson } from '../errors/go-format.ts';
import { nestedTooDeep, requestEntityTooLarge, type StatusError } from '../errors/status-error.ts';
import { MAX_OBJECT_DEPTH, nestingDepth } from '../util/nesting-depth.ts';
import { interpretGoTypeMeta, parseGoJson } from '../go/json.ts';
import { decodeIntoMap, decodeJsonPatchStrict } from './decode.ts';
import { badRequest, invalidPatch, panicked, plainError, strictDecodingFailure, unprocessable } from './errors.ts';
import { fromGoValue, GoPanic, goSprintV, toGoValue, type GoMap, type GoValue } from './go-value.ts';
import { applyOperations, MAX_JSON_PATCH_OPERATIONS, parseRawNodes, toOperation } from './json-patch.ts';
import { evanphxMergePatch } from './merge-patch.ts';
import { schemaFor } from './smp-schema.ts';
import { SMP_ERRORS, StrategicMergeError, strategicMergeMapPatch } from './strategic-merge.ts';

export { PATCH_CONTENT_TYPES, type PatchType } from './content-types.ts';
import type { PatchType } from './content-types.ts';

export interface PatchTarget {
  group: string;
  version: string;
  kind: string;
  /** Custom resources: no Go struct, hence no strategic merge. */
  unstructured: boolean;
}

/** metav1.PatchOptions.fieldValidation; the apiserver defaults "" to Warn. */
export type PatchFieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface PatchOptions {
  fieldValidation?: PatchFieldValidation;
}

export interface PatchResult {
  /** The patched object, still to be decoded, defaulted and validated by the registry. */
  object: Record<string, unknown>;
  /**
   * Strict decoding findings of the patch body itself (Warn/Strict only), e.g.
   * `json patch unknown field "[0].foo"`, `duplicate field "metadata.labels.a"`. patch.go joins
   * them with the unknown fields of the patched object: Warn sends each as a warning, Strict
   * fails with strictDecodingError(result, all).
   */
  strictErrors: string[];
  /** The value patch.go prints in the Strict 422 (`patch: Invalid value: "..."`). */
  invalidValue: () => string;
}

/**
 * Applies a patch body to `current` (not mutated) the way patch.go does for `type`, and throws
 * the StatusError the apiserver answers when that fails. Strict findings of the patch body are
 * dropped under Warn and fail the request under Strict (see patchObject to keep them).
 */
export function applyPatch(
  type: PatchType,
  current: Record<string, unknown>,
  body: Uint8Array,
  target: PatchTarget,
  options: PatchOptions = {},
): Record<string, unknown> {
  const result = patchObject(type, current, body, target, options);
  if (options.fieldValidation === 'Strict' && result.strictErrors.length > 0) throw strictDecodingError(result, []);
  return result.object;
}

/** The Strict 422: ` "" is invalid: patch: Invalid value: "...": strict decoding error: a, b`. */
export function strictDecodingError(result: PatchResult, objectErrors: readonly string[]): StatusError {
  return strictDecodingFailure(result.invalidValue(), [...result.strictErrors, ...objectErrors]);
}

/** applyPatch, keeping the strict findings for the caller to combine with the object's own. */
export function patchObject(
  type: PatchType,
  current: Record<string, unknown>,
  body: Uint8Array,
  target: PatchTarget,
  options: PatchOptions = {},
): PatchResult {
  const strict = (options.fieldValidation ?? 'Warn') !== 'Ignore';
  // kubefake's depth limit (util/nesting-depth.ts), on the patch before any recursive merge runs
  // on it and on what it makes: past 10,000 levels the decoders below answer Go's own error.
  const syntax = parseGoJson(body);
  if (syntax.ok && nestingDepth(syntax.value, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) throw nestedTooDeep(MAX_OBJECT_DEPTH);
  const result = patchByType(type, current, body, target, strict);
  if (nestingDepth(result.object, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) throw nestedTooDeep(MAX_OBJECT_DEPTH);
  return result;
}

function patchByType(type: PatchType, current: Record<string, unknown>, body: Uint8Array, target: PatchTarget, strict: boolean): PatchResult {
  switch (type) {
    case 'json':
      return jsonPatch(current, body, strict);
    case 'merge':
      return mergePatch(current, body, strict);
    case 'strategic':
      return strategicPatch(current, body, target, strict);
  }
}

function jsonPatch(current: Record<string, unknown>, body: Uint8Array, strict: boolean): PatchResult {
  let strictErrors: string[] = [];
  if (strict) {
    const pre = decodeJsonPatchStrict(body);
    if (!pre.ok) throw badRequest(`error decoding patch: ${pre.error}`);
    strictErrors = pre.strictErrors.map((e) => `json patch ${e}`);
  }
  // jsonpatch.DecodePatch: encoding/json into []map[string]*json.RawMessage.
  const syntax = parseGoJson(body);
  if (!syntax.ok) throw badRequest(syntax.error);
  const root = parseRawNodes(body);
  if (root !== null && root.t !== 'ary') throw badRequest(`json: cannot unmarshal ${nodeKind(root)} into Go value of type jsonpatch.Patch`);
  const elements = root === null ? [] : root.ary;
  for (const el of elements) {
    if (el !== null && el.t !== 'doc') throw badRequest(`json: cannot unmarshal ${nodeKind(el)} into Go value of type jsonpatch.Operation`);
  }
  if (elements.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${elements.length}`);
  }
  const outcome = applyOperations(elements.map(toOperation), current);
  if (!outcome.ok) throw 'panic' in outcome ? panicked(outcome.panic) : unprocessable(outcome.error);
  return patchedDocument(outcome.value, strictErrors);
}

function nodeKind(n: { t: string; raw?: string | null }): string {
  if (n.t === 'doc') return 'object';
  if (n.t === 'ary') return 'array';
  const raw = n.raw ?? 'null';
  if (raw.startsWith('"')) return 'string';
  if (raw === 'true' || raw === 'false') return 'bool';
  return 'number';
}

/**
 * The patched JSON as runtime.DecodeInto sees it: a non-object cannot even yield its kind, which
 * patch.go reports as a 422 on the field "patch" with the patched JSON as value.
 */
function patchedDocument(value: unknown, strictErrors: string[]): PatchResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const meta = interpretGoTypeMeta(value);
    throw invalidPatch(goJson(value), meta.ok ? 'unexpected patched document' : meta.error);
  }
  const object = value as Record<string, unknown>;
  return { object, strictErrors, invalidValue: () => goJson(object) };
}

function mergePatch(current: Record<string, unknown>, body: Uint8Array, strict: boolean): PatchResult {
  let strictErrors: string[] = [];
  if (strict) {
    const pre = decodeIntoMap(body, true);
    if (!pre.ok) throw badRequest(`error decoding patch: ${pre.error}`);
    strictErrors = pre.strictErrors;
  }
  // jsonpatch.MergePatch: a syntax error or a null/scalar patch is ErrBadJSONPatch; an array
  // patch becomes the document (with nulls pruned inside its objects).
  const parsed = parseGoJson(body);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') throw badRequest('Invalid JSON Patch');
  if (Array.isArray(parsed.value)) return patchedDocument(evanphxMergePatch({}, { v: parsed.value }).v, strictErrors);
  // The merge shares untouched subtrees with `current`; the caller gets its own copy.
  return patchedDocument(structuredClone(evanphxMergePatch(current, parsed.value as Record<string, unknown>)), strictErrors);
}

function strategicPatch(current: Record<string, unknown>, body: Uint8Array, target: PatchTarget, strict: boolean): PatchResult {
  const decoded = decodeIntoMap(body, strict);
  if (!decoded.ok) throw badRequest(decoded.error);
  const patchMap = decoded.value as GoMap | null;
  // StrategicMergeMapPatch refuses unstructured objects before looking at the patch.
  if (target.unstructured) throw badRequest(SMP_ERRORS.unsupportedStrategicMergePatchFormat);
  let merged: GoMap;
  try {
    merged = strategicMergeMapPatch(toGoValue(current) as GoMap, patchMap, schemaFor(target.group, target.version, target.kind));
  } catch (err) {
    if (err instanceof GoPanic) throw panicked(err);
    if (err instanceof StrategicMergeError) {
      if (err.code === 400) throw badRequest(err.message);
      if (err.code === 422) throw unprocessable(err.message);
      throw plainError(err.message);
    }
    throw err;
  }
  // patch.go prints fmt.Sprintf("%+v", patchMap) after StrategicMergeMapPatch has consumed its
  // directives (the map is mutated in place, as here).
  const invalidValue = goSprintV(patchMap);
  return { object: fromGoValue(merged as GoValue) as Record<string, unknown>, strictErrors: decoded.strictErrors, invalidValue: () => invalidValue };
}
