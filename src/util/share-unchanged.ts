// A read-modify-write copies the whole stored object, changes a part of it (a pod's status) and
// stores it again. The store freezes what it is given part by part and the field manager compares
// old and new part by part; both skip a part that is the stored object's own (frozen, and the
// same reference). This puts the stored parts back into the copy wherever the copy still equals
// them, so a status write costs what its status costs, not what the whole pod costs.

/**
 * Replaces, inside `next` (a mutable copy its caller owns), every part equal to the same part of
 * `prev` (a frozen stored object) with prev's. `next` itself and its members named in `fresh`
 * stay its own objects (they are only descended into): the store writes a fresh metadata anyway
 * and the field manager sets managedFields in it. Equality is exact: the same keys (a key holding
 * undefined differs from a missing one), arrays item by item, numbers by Object.is.
 */
export function shareUnchanged(next: Record<string, unknown>, prev: Record<string, unknown>, fresh: readonly string[] = []): void {
  for (const k of Object.keys(next)) {
    if (!Object.hasOwn(prev, k)) continue;
    const v = next[k];
    const p = prev[k];
    if (fresh.includes(k)) {
      if (isRecord(v) && isRecord(p) && !Object.isFrozen(v)) shareUnchanged(v, p);
    } else if (share(v, p)) next[k] = p;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `v` equals `p`; on the way, v's parts take p's equal ones (frozen parts of `v` are left as they are). */
function share(v: unknown, p: unknown): boolean {
  if (typeof v !== 'object' || v === null || typeof p !== 'object' || p === null) return Object.is(v, p);
  if (v === p) return true;
  // Only frozen parts are shared: nobody can change them under either object.
  if (!Object.isFrozen(p)) return false;
  const mutable = !Object.isFrozen(v);
  if (Array.isArray(v)) {
    if (!Array.isArray(p)) return false;
    let equal = v.length === p.length;
    const n = Math.min(v.length, p.length);
    for (let i = 0; i < n; i++) {
      if (v[i] === p[i] && typeof v[i] === 'object') continue;
      if (share(v[i], p[i])) {
        if (mutable && typeof p[i] === 'object') v[i] = p[i];
      } else equal = false;
    }
    return equal;
  }
  if (Array.isArray(p)) return false;
  const vo = v as Record<string, unknown>;
  const po = p as Record<string, unknown>;
  const keys = Object.keys(vo);
  let equal = keys.length === Object.keys(po).length;
  for (const k of keys) {
    if (!Object.hasOwn(po, k)) {
      equal = false;
      continue;
    }
    const a = vo[k];
    const b = po[k];
    if (a === b && typeof a === 'object') continue;
    if (share(a, b)) {
      if (mutable && typeof b === 'object') vo[k] = b;
    } else equal = false;
  }
  return equal;
}
