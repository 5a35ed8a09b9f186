// One presented object per stored object and resource type, frozen and shared by every reader
// that presents it the same way (watchers, and lists of types without a storage codec): the HTTP
// layer then serialises each one once (http/object-json.ts) however often it is sent. Stored
// objects never change, so neither does what is presented for them.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';

const presentedByType = new WeakMap<ResourceType, WeakMap<StoredObject, KubeObject>>();

/** `present(obj)`, computed once per (type, stored object) and frozen. */
export function presentShared(type: ResourceType, obj: StoredObject, present: (obj: StoredObject) => KubeObject): KubeObject {
  let byObject = presentedByType.get(type);
  if (!byObject) presentedByType.set(type, (byObject = new WeakMap()));
  let presented = byObject.get(obj);
  if (!presented) byObject.set(obj, (presented = Object.freeze(present(obj))));
  return presented;
}
