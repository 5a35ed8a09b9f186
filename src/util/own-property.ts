// Object keys from user data are data: a ConfigMap key `__proto__`, `constructor` or `toString`
// must neither reach Object.prototype when read nor set an object's prototype when written.

/** `obj[key] = value`, except that `__proto__` becomes an own property (as JSON.parse makes it), not the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** `obj[key]` if it is obj's own property; never an inherited member such as `constructor`. */
export function getOwn(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}
