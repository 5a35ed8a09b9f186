/**
 * `target.push(...items)` without spreading: a spread passes every item as a call argument, and
 * a list of ~100k (validation errors of a 3 MiB body, say) overflows the stack.
 */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
  return target;
}
