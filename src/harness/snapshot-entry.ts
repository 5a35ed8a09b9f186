// The unit snapshot(), its stable order and diff() work on; in its own module so that
// stable-order.ts and diff.ts need not import snapshot.ts, which imports them.
import type { StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';

/** One stored object of a snapshot, kept for diff(). */
export interface SnapshotEntry {
  /** `bucket \0 key`: the object's identity in the store. */
  id: string;
  type: ResourceType;
  object: StoredObject;
}
