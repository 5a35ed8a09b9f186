// The garbage collector's graph, reduced to what it needs: for each owner uid, the objects whose
// ownerReferences name it. Kept current from store events.
import type { OwnerReference, StoredObject } from '../apis/object.ts';

/** `bucket` and `key` of a stored object, joined. */
export type ObjectRef = string;
export const objectRef = (bucket: string, key: string): ObjectRef => `${bucket}\u0000${key}`;
export function parseObjectRef(ref: ObjectRef): { bucket: string; key: string } {
  const i = ref.indexOf('\u0000');
  return { bucket: ref.slice(0, i), key: ref.slice(i + 1) };
}

export class OwnerIndex {
  private readonly dependents = new Map<string, Set<ObjectRef>>();
  private readonly owners = new Map<ObjectRef, string[]>();

  /** Records the object's current owners (none once deleted). */
  set(ref: ObjectRef, object: StoredObject | undefined): void {
    const next = object ? ownerUids(object) : [];
    const previous = this.owners.get(ref) ?? [];
    for (const uid of previous) {
      if (next.includes(uid)) continue;
      const set = this.dependents.get(uid);
      set?.delete(ref);
      if (set?.size === 0) this.dependents.delete(uid);
    }
    for (const uid of next) {
      let set = this.dependents.get(uid);
      if (!set) this.dependents.set(uid, (set = new Set()));
      set.add(ref);
    }
    if (next.length) this.owners.set(ref, next);
    else this.owners.delete(ref);
  }

  dependentsOf(uid: string): ObjectRef[] {
    return [...(this.dependents.get(uid) ?? [])];
  }

  ownersOf(ref: ObjectRef): readonly string[] {
    return this.owners.get(ref) ?? [];
  }
}

export function ownerReferences(object: StoredObject): OwnerReference[] {
  const refs = object.metadata.ownerReferences;
  return Array.isArray(refs) ? refs : [];
}

function ownerUids(object: StoredObject): string[] {
  return [...new Set(ownerReferences(object).map((r) => r.uid).filter((u): u is string => typeof u === 'string' && u !== ''))];
}
