// k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch (v0.36), as the apiserver
// runs it: MergeParallelList and IgnoreUnmatchedNulls on. Ported function for function, with Go's
// value semantics where they show: `==` on interface values (int64 80 != float64 80), map
// iteration (insertion order here; Go's is random), sort.SliceStable, and the in-place slice
// shifting of deleteMatchingEntries that the caller's view of the original list still sees.
import { goSliceStable } from './go-sort.ts';
import {
  GoPanic,
  goEqual,
  goHashKey,
  goKind,
  goSprintS,
  goSprintV,
  goTypeName,
  isGoMap,
  type GoMap,
  type GoValue,
} from './go-value.ts';
import { lookupField, type StructSchema } from './smp-schema.ts';
import { setOwn } from '../util/own-property.ts';

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** mergepatch's sentinel errors; patch.go interpretStrategicMergePatchError maps them to codes. */
export const SMP_ERRORS = {
  badJSONDoc: 'invalid JSON document',
  noListOfLists: 'lists of lists are not supported',
  badPatchFormatForPrimitiveList: 'invalid patch format of primitive list',
  badPatchFormatForRetainKeys: 'invalid patch format of retainKeys',
  badPatchFormatForSetElementOrderList: 'invalid patch format of setElementOrder list',
  patchContentNotMatchRetainKeys: "patch content doesn't match retainKeys list",
  unsupportedStrategicMergePatchFormat: 'strategic merge patch format is not supported',
} as const;

const BAD_REQUEST = new Set<string>([
  SMP_ERRORS.badJSONDoc,
  SMP_ERRORS.badPatchFormatForPrimitiveList,
  SMP_ERRORS.badPatchFormatForRetainKeys,
  SMP_ERRORS.badPatchFormatForSetElementOrderList,
  SMP_ERRORS.unsupportedStrategicMergePatchFormat,
]);
const UNPROCESSABLE = new Set<string>([SMP_ERRORS.noListOfLists, SMP_ERRORS.patchContentNotMatchRetainKeys]);

/** An error returned by strategicpatch, with the HTTP code patch.go gives it. */
export class StrategicMergeError extends Error {
  readonly code: 400 | 422 | 500;
  constructor(message: string) {
    super(message);
    this.name = 'StrategicMergeError';
    this.code = BAD_REQUEST.has(message) ? 400 : UNPROCESSABLE.has(message) ? 422 : 500;
  }
}

const fail = (message: string): StrategicMergeError => new StrategicMergeError(message);
const errNoMergeKey = (m: GoMap, k: string): StrategicMergeError => fail(`map: ${goSprintV(m)} does not contain declared merge key: ${k}`);
const errBadArgType = (expected: string, actual: GoValue | undefined): StrategicMergeError =>
  fail(`expected a ${expected}, but received a ${goTypeName(actual)}`);
const errBadPatchType = (t: GoValue | undefined, m: GoMap): StrategicMergeError => fail(`unknown patch type: ${goSprintS(t)} in map: ${goSprintV(m)}`);
const MAP_TYPE = 'map[string]interface {}';
const SLICE_TYPE = '[]interface {}';

const has = (m: GoMap, k: string): boolean => Object.hasOwn(m, k);

/**
 * Applies `patch` to `original` (both are mutated, as in Go) for a typed kind described by `schema`.
 * Throws StrategicMergeError or GoPanic.
 */
export function strategicMergeMapPatch(original: GoMap, patch: GoMap | null, schema: StructSchema): GoMap {
  return mergeMap(original, patch ?? {}, schema);
}

function handleDirectiveInMergeMap(directive: GoValue, patch: GoMap): GoMap {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

function containsDirectiveMarker(item: GoValue): boolean {
  return isGoMap(item) && has(item, DIRECTIVE_MARKER);
}

function mergeKeyValueEqual(left: GoValue, right: GoValue, mergeKey: string): boolean {
  if (mergeKey.length === 0) return goEqual(left, right);
  if (!isGoMap(left)) throw errBadArgType(MAP_TYPE, left);
  if (!isGoMap(right)) throw errBadArgType(MAP_TYPE, right);
  if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw fail(SMP_ERRORS.badPatchFormatForPrimitiveList);
    if (prefix === SET_ELEMENT_ORDER_PREFIX) throw fail(SMP_ERRORS.badPatchFormatForSetElementOrderList);
    throw fail(`fail to find unknown prefix "${prefix}" in ${s}\n`);
  }
  return s.slice(slash + 1);
}

function validatePatchWithSetOrderList(patchList: GoValue[], setOrderList: GoValue[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey.length > 0 ? extractToDeleteItems(patchList)[0] : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDeleteList.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[patchIndex]!)) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[patchIndex]!, setOrderList[setOrderIndex]!, mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDeleteList.length && setOrderIndex >= setOrderList.length) {
    throw fail(`The order in patch list:\n${goSprintV(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goSprintV(setOrderList)}\n`);
  }
}

function applyRetainKeysDirective(original: GoMap, patch: GoMap): void {
  if (!has(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(retainKeys)) throw fail(SMP_ERRORS.badPatchFormatForRetainKeys);
  const keep = new Set(retainKeys.map(goHashKey));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!keep.has(goHashKey(k))) throw fail(SMP_ERRORS.badPatchFormatForRetainKeys);
  }
  for (const k of Object.keys(original)) if (!keep.has(goHashKey(k))) delete original[k];
}

function mergePatchIntoOriginal(original: GoMap, patch: GoMap, schema: StructSchema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!has(patch, key) || !key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const setElementOrder = patch[key]!;
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw errBadArgType(SLICE_TYPE, setElementOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = has(original, originalKey);
    const foundPatch = has(patch, originalKey);
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    let originalFieldValue: GoValue[] = [];
    let patchFieldValue: GoValue[] = [];
    if (foundOriginal) {
      if (!Array.isArray(originalList)) throw errBadArgType(SLICE_TYPE, originalList);
      originalFieldValue = originalList;
    }
    if (foundPatch) {
      if (!Array.isArray(patchList)) throw errBadArgType(SLICE_TYPE, patchList);
      patchFieldValue = patchList;
    }
    const { schema: subschema, meta } = lookupField(schema, originalKey);
    const patchStrategy = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchFieldValue, setElementOrder, meta.mergeKey);

    let merged: GoValue[];
    if (foundOriginal && !foundPatch) {
      merged = originalFieldValue;
    } else if (!foundOriginal && foundPatch) {
      merged = removeDirectives(patchFieldValue)[0] as GoValue[];
    } else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(originalFieldValue, patchFieldValue, subschema, patchStrategy, meta.mergeKey, false);
    } else {
      continue;
    }

    const [patchItems, serverOnlyItems] =
      meta.mergeKey.length === 0
        ? partitionPrimitivesByPresentInList(merged, setElementOrder)
        : partitionMapsByPresentInList(merged, setElementOrder, meta.mergeKey);
    const kind = sliceElementKind([originalFieldValue, patchFieldValue]);
    original[originalKey] = normalizeElementOrder(patchItems, serverOnlyItems, setElementOrder, originalFieldValue, meta.mergeKey, kind);
    delete patch[originalKey];
  }
}

function partitionPrimitivesByPresentInList(original: GoValue[], partitionBy: GoValue[]): [GoValue[], GoValue[]] {
  const inPatch = new Set(partitionBy.map(goHashKey));
  const patch: GoValue[] = [];
  const serverOnly: GoValue[] = [];
  for (const v of original) (inPatch.has(goHashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

function partitionMapsByPresentInList(original: GoValue[], partitionBy: GoValue[], mergeKey: string): [GoValue[], GoValue[]] {
  const patch: GoValue[] = [];
  const serverOnly: GoValue[] = [];
  for (const v of original) {
    if (!isGoMap(v)) throw errBadArgType(MAP_TYPE, v);
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, v[mergeKey]!) ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

/** Drops `$patch` maps (and keys holding them); other directive keys stay, as in Go. */
function removeDirectives(obj: GoValue): [GoValue, boolean] {
  if (obj === null) return [obj, true];
  if (isGoMap(obj)) {
    if (has(obj, DIRECTIVE_MARKER)) return [null, false];
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k]!);
      if (keep) setOwn(obj, k, v);
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: GoValue[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

function mergeMap(original: GoMap | null, patch: GoMap, schema: StructSchema | undefined): GoMap {
  if (has(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER]!, patch);
  const orig: GoMap = original ?? {};
  applyRetainKeysDirective(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);

  for (const key of Object.keys(patch)) {
    if (!has(patch, key)) continue;
    const patchV = patch[key]!;
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      const noPrefixKey = extractKey(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
      if (noPrefixKey.length > 0) k = noPrefixKey;
    }
    if (patchV === null) {
      delete orig[k];
      continue;
    }
    if (!has(orig, k)) {
      if (!isDeleteList) setFromPatch(orig, k, patchV);
      continue;
    }
    const originalKind = goKind(orig[k]);
    if (originalKind !== goKind(patchV)) {
      if (!isDeleteList) setFromPatch(orig, k, patchV);
      continue;
    }
    if (originalKind === 'map') {
      const { schema: subschema, meta } = lookupField(schema, k);
      const strategy = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(orig, k, strategy !== REPLACE_DIRECTIVE ? mergeMap(orig[k] as GoMap, patchV as GoMap, subschema) : patchV);
    } else if (originalKind === 'slice') {
      const { schema: subschema, meta } = lookupField(schema, k);
      const strategy = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(orig, k, mergeSliceHandler(orig[k] as GoValue[], patchV as GoValue[], subschema, strategy, meta.mergeKey, isDeleteList));
    } else {
      const [v, keep] = removeDirectives(patchV);
      if (keep) setOwn(orig, k, v);
      else delete orig[k];
    }
  }
  return orig;
}

/** A patch value taken as is: nulls discarded, `$patch` maps removed. */
function setFromPatch(orig: GoMap, k: string, patchV: GoValue): void {
  discardNullValuesFromPatch(patchV);
  const [v, keep] = removeDirectives(patchV);
  if (keep) setOwn(orig, k, v);
  else delete orig[k];
}

function discardNullValuesFromPatch(v: GoValue): void {
  if (isGoMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValuesFromPatch(v[k]!);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) discardNullValuesFromPatch(x);
  }
}

function mergeSliceHandler(
  original: GoValue[],
  patch: GoValue[],
  schema: StructSchema | undefined,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): GoValue[] {
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, strategy, mergeKey, isDeleteList);
  return patch;
}

/**
 * A Go slice over a shared backing array: deletions shift elements in place and appends reuse
 * the freed capacity, so the caller's own view of the original list (same backing array, old
 * length) observes both, which then steers the final ordering. Capacity is taken as the length.
 */
interface GoSlice {
  backing: GoValue[];
  len: number;
}
const view = (s: GoSlice): GoValue[] => s.backing.slice(0, s.len);

function sliceAppend(s: GoSlice, v: GoValue): GoSlice {
  if (s.len < s.backing.length) {
    s.backing[s.len] = v;
    return { backing: s.backing, len: s.len + 1 };
  }
  return { backing: [...view(s), v], len: s.len + 1 };
}

function mergeSlice(
  original: GoValue[],
  patch: GoValue[],
  schema: StructSchema | undefined,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): GoValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind([original, patch]);
  let merged: GoValue[];
  let orig: GoValue[] = original;
  let patchList: GoValue[] = patch;
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    // `append(original, patch...)` aliases original only when patch is empty.
    merged = deduplicateScalars(patch.length === 0 ? { backing: original, len: original.length } : { backing: [...original, ...patch], len: original.length + patch.length });
  } else {
    // PatchMetaFromStruct.Name() is the element's Go kind: the keyless merge lists hold strings.
    if (mergeKey === '') throw fail(`cannot merge lists without merge key for ${strategy === MERGE_DIRECTIVE ? 'string' : 'struct'}`);
    const special = mergeSliceWithSpecialElements({ backing: original, len: original.length }, patch, mergeKey);
    orig = view(special.original);
    patchList = special.patch;
    merged = mergeSliceWithoutSpecialElements(special.original, patchList, mergeKey, schema);
  }
  const [patchItems, serverOnlyItems] =
    mergeKey.length === 0 ? partitionPrimitivesByPresentInList(merged, patchList) : partitionMapsByPresentInList(merged, patchList, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, patchList, orig, mergeKey, kind);
}

function mergeSliceWithSpecialElements(original: GoSlice, patch: GoValue[], mergeKey: string): { original: GoSlice; patch: GoValue[] } {
  const withoutSpecial: GoValue[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const typed = v as GoMap;
    if (!has(typed, DIRECTIVE_MARKER)) {
      withoutSpecial.push(v);
      continue;
    }
    const patchType = typed[DIRECTIVE_MARKER];
    if (patchType === DELETE_DIRECTIVE) {
      if (!has(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
      orig = deleteMatchingEntries(orig, mergeKey, typed[mergeKey]!);
    } else if (patchType === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (patchType === MERGE_DIRECTIVE) {
      throw fail('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(patchType, typed);
    }
  }
  if (replace) return { original: { backing: withoutSpecial, len: withoutSpecial.length }, patch: [] };
  return { original: orig, patch: withoutSpecial };
}

function deleteMatchingEntries(original: GoSlice, mergeKey: string, mergeValue: GoValue): GoSlice {
  let s = original;
  for (;;) {
    const found = findMapInSliceBasedOnKeyValue(view(s), mergeKey, mergeValue);
    if (!found) return s;
    // append(original[:i], original[i+1:]...): shifts left within the same backing array.
    const i = found.index;
    for (let j = i; j < s.len - 1; j++) s.backing[j] = s.backing[j + 1]!;
    s = { backing: s.backing, len: s.len - 1 };
  }
}

function mergeSliceWithoutSpecialElements(original: GoSlice, patch: GoValue[], mergeKey: string, schema: StructSchema | undefined): GoValue[] {
  let s = original;
  for (const v of patch) {
    const typed = v as GoMap;
    if (!has(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
    const found = findMapInSliceBasedOnKeyValue(view(s), mergeKey, typed[mergeKey]!);
    if (found) s.backing[found.index] = mergeMap(found.map, typed, schema);
    else s = sliceAppend(s, v);
  }
  return view(s);
}

function deleteFromSlice(current: GoValue[], toDelete: GoValue[]): GoValue[] {
  const del = new Set(toDelete.map(goHashKey));
  return current.filter((v) => !del.has(goHashKey(v)));
}

function findMapInSliceBasedOnKeyValue(m: GoValue[], key: string, value: GoValue): { map: GoMap; index: number } | undefined {
  for (let i = 0; i < m.length; i++) {
    const v = m[i]!;
    if (!isGoMap(v)) throw fail(`value for key ${i} is not a map`);
    if (has(v, key) && goEqual(v[key], value)) return { map: v, index: i };
  }
  return undefined;
}

/** Go's in-place "clever" deduplication, which reorders (the result is reordered again later). */
function deduplicateScalars(slice: GoSlice): GoValue[] {
  const s = slice.backing;
  let n = slice.len;
  let length = n - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s[i], s[j])) {
        s[j] = s[length]!;
        n = length;
        length--;
        j--;
      }
    }
  }
  return s.slice(0, n);
}

/** sliceElementType: the one Go type of all elements, as a kind. */
function sliceElementKind(slices: GoValue[][]): ReturnType<typeof goKind> {
  let prev: ReturnType<typeof goKind> | undefined;
  for (const s of slices) {
    for (const v of s) {
      const current = goKind(v);
      if (prev === undefined) {
        // reflect.TypeOf(nil).Kind() dereferences a nil Type.
        if (current === 'nil') throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
        prev = current;
        if (prev === 'slice') throw fail(SMP_ERRORS.noListOfLists);
      } else if (prev !== current) {
        throw fail(`list element types are not identical: ${goSprintV(slices)}`);
      }
    }
  }
  if (prev === undefined) throw fail('no elements in any of the given slices');
  return prev;
}

function extractToDeleteItems(l: GoValue[]): [GoValue[], GoValue[]] {
  const nonDelete: GoValue[] = [];
  const toDelete: GoValue[] = [];
  for (const v of l) {
    if (!isGoMap(v)) throw errBadArgType(MAP_TYPE, v);
    if (has(v, DIRECTIVE_MARKER) && v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

function validateMergeKeyInLists(mergeKey: string, lists: GoValue[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isGoMap(item)) throw errBadArgType(MAP_TYPE, item);
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

function index(l: GoValue[], valToLookUp: GoValue, mergeKey: string, kind: string): number {
  const getVal = kind === 'map' ? (item: GoValue): GoValue | undefined => (isGoMap(item) ? item[mergeKey] : null) : (item: GoValue) => item;
  for (let i = 0; i < l.length; i++) {
    if (goEqual(getVal(valToLookUp) ?? null, getVal(l[i]!) ?? null)) return i;
  }
  return -1;
}

function normalizeSliceOrder(toSort: GoValue[], order: GoValue[], mergeKey: string, kind: string): GoValue[] {
  let items = toSort;
  let toDelete: GoValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, [toSort, order]);
    [items, toDelete] = extractToDeleteItems(toSort);
  }
  items = [...items];
  goSliceStable(items, (a, b) => {
    const ii = index(order, a, mergeKey, kind);
    if (ii >= 0) {
      const ij = index(order, b, mergeKey, kind);
      if (ij >= 0) return ii < ij;
    }
    return true;
  });
  return [...items, ...toDelete];
}

function normalizeElementOrder(patch: GoValue[], serverOnly: GoValue[], patchOrder: GoValue[], serverOrder: GoValue[], mergeKey: string, kind: string): GoValue[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServer = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServer, sortedPatch, serverOrder, mergeKey, kind);
}

function mergeSortedSlice(left: GoValue[], right: GoValue[], serverOrder: GoValue[], mergeKey: string, kind: string): GoValue[] {
  const size = left.length + right.length;
  const out: GoValue[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) {
      out.push(right[j++]!);
    } else if (j >= right.length && i < left.length) {
      out.push(left[i++]!);
    } else {
      const li = index(serverOrder, left[i]!, mergeKey, kind);
      const ri = index(serverOrder, right[j]!, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}

function extractRetainKeysPatchStrategy(strategies: string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : strategies[0]!;
  if (strategies.length === 2) {
    if (strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1]!;
    if (strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0]!;
  }
  throw fail(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
