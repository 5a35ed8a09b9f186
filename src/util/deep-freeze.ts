// Tests and benchmarks freeze objects with it to stand for stored state, which the store freezes
// itself as it shares values (src/storage/shared-values.ts): code given a stored object must never write to it.

/** Freezes a JSON-like value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return value;
}
