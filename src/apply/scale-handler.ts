// The managedFields of a scale write (apimachinery pkg/util/managedfields/scalehandler.go): the
// Scale's field manager sees the parent's owners of the replicas path as owners of the Scale's
// `.spec.replicas`; after the write their ownership is carried back into the parent's entries.
import { FieldSet, type Path } from './fieldpath.ts';
import { decodeManagedFields, encodeManagedFields, type ManagedFieldsEntry } from './managed-fields.ts';

const SCALE_GROUP_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [{ field: 'spec' }, { field: 'replicas' }];

/**
 * ResourcePathMappings: group/version → replicas path of the parent in that version; null for a
 * version without a scale subresource (a custom resource's), absent for an unknown version.
 */
export type ReplicasPathMappings = ReadonlyMap<string, Path | null>;

/** A dotted path (`.spec.replicas`) as a field path. */
export const replicasPathOf = (dotted: string): Path => dotted.replace(/^\./, '').split('.').map((field) => ({ field }));

export class ScaleHandler {
  private readonly parentEntries: unknown;
  /** The group/version new scale owners are recorded in (the parent's hub version). */
  private readonly groupVersion: string;
  private readonly mappings: ReplicasPathMappings;

  constructor(parentEntries: unknown, groupVersion: string, mappings: ReplicasPathMappings) {
    this.parentEntries = parentEntries;
    this.groupVersion = groupVersion;
    this.mappings = mappings;
  }

  /** ToSubresource: the parent's owners of the replicas path, as owners of the Scale's `.spec.replicas`. */
  toSubresource(): ManagedFieldsEntry[] | undefined {
    const parent = decodeManagedFields(this.parentEntries);
    const out = { fields: new Map(), times: new Map<string, string | undefined>() };
    for (const [manager, vs] of parent.fields) {
      const path = this.mappings.get(vs.apiVersion);
      if (!path || !vs.set.has(path)) continue;
      out.fields.set(manager, { set: FieldSet.of(REPLICAS_IN_SCALE), apiVersion: SCALE_GROUP_VERSION, applied: vs.applied });
      out.times.set(manager, parent.times.get(manager));
    }
    return encodeManagedFields(out);
  }

  /**
   * ToParent: the parent's entries with the replicas path taken from managers that no longer own
   * it in the Scale, and an entry for each new owner. Times are the parent's: a manager new to
   * the parent gets an entry without a time, as the real handler writes it.
   */
  toParent(scaleEntries: unknown): ManagedFieldsEntry[] | undefined {
    const parent = decodeManagedFields(this.parentEntries);
    const scale = decodeManagedFields(scaleEntries).fields;
    const out = { fields: new Map(), times: new Map<string, string | undefined>() };
    for (const [manager, vs] of parent.fields) {
      if (!this.mappings.has(vs.apiVersion)) continue; // an unknown version's entry is dropped
      const path = this.mappings.get(vs.apiVersion);
      if (!path || !vs.set.has(path)) {
        out.fields.set(manager, vs);
        out.times.set(manager, parent.times.get(manager));
      } else if (!scale.has(manager)) {
        const rest = vs.set.difference(FieldSet.of(path));
        if (!rest.empty()) {
          out.fields.set(manager, { ...vs, set: rest });
          out.times.set(manager, parent.times.get(manager));
        }
      } else {
        out.fields.set(manager, vs);
        out.times.set(manager, parent.times.get(manager));
        scale.delete(manager);
      }
    }
    const ownPath = this.mappings.get(this.groupVersion);
    for (const [manager, vs] of scale) {
      if (!vs.set.has(REPLICAS_IN_SCALE)) continue;
      out.fields.set(manager, { set: ownPath ? FieldSet.of(ownPath) : new FieldSet(), apiVersion: this.groupVersion, applied: vs.applied });
      out.times.set(manager, parent.times.get(manager));
    }
    return encodeManagedFields(out);
  }
}
