// How deeply a JSON value nests, counted as encoding/json counts it (`{}` and `[]` are one level
// each, a scalar none), without recursion: the values measured are the ones too deep to recurse on.

/**
 * The deepest nesting kubefake accepts in an object it decodes or stores. kube-apiserver accepts
 * up to 10,000 (encoding/json's maxNestingDepth, go-yaml's max depth). kubefake's decoders,
 * validators, managedFields, structuredClone and JSON.stringify recurse on the JS stack, which
 * overflows somewhere past ~1,800 levels; so objects nested deeper than this are refused before
 * anything runs on them, and none is ever stored that its own answer or watch event could not
 * serialise.
 */
export const MAX_OBJECT_DEPTH = 1000;

/** The nesting depth of `value`, or `limit + 1` as soon as it is known to exceed `limit`. */
export function nestingDepth(value: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  if (value === null || typeof value !== 'object') return 0;
  // Parallel stacks, no tuple or Object.values array per node: this runs on every stored write.
  const values: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return limit + 1;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in v) {
        const child: unknown = (v as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return deepest;
}
