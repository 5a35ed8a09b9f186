// Small helpers over decoded JSON values (objects are plain records, arrays are arrays).

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * runtime.DeepCopyJSONValue: a copy of decoded JSON (plain records, arrays, primitives), several
 * times faster than structuredClone for it. A `__proto__` key (JSON.parse makes it an own
 * property; a ConfigMap may hold one) stays an own data property of the copy.
 */
export function deepCopyJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopyJson) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) {
      if (k === '__proto__') Object.defineProperty(out, k, { value: deepCopyJson(v[k]), enumerable: true, writable: true, configurable: true });
      else out[k] = deepCopyJson(v[k]);
    }
    return out as T;
  }
  return v;
}

/** The path segment builders of the unknown-field tracker (pruning's UnknownFieldPathOptions). */
export const joinKey = (parent: string, key: string): string => (parent === '' ? key : `${parent}.${key}`);
export const joinIndex = (parent: string, i: number): string => `${parent}[${i}]`;

/** field.Path building: Child joins with dots, Key and Index use brackets. */
export const fieldChild = joinKey;
export const fieldKey = (parent: string, key: string): string => `${parent}[${key}]`;
