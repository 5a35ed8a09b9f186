/** Freezes a JSON-like value and everything inside it, so stored state can never be mutated. */
export function deepFreeze<T>(value: T): T {
  // An explicit stack, not recursion: this runs inside the store's commit, which must not fail.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return value;
}
