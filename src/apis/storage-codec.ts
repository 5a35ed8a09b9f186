// The seam between a resource served at several versions and its one storage bucket (the storage
// codec of the real apiserver): objects are written at the storage version and decoded to the
// version a request asked for. Custom resources with several versions have one; built-ins do not.
import type { KubeObject } from './object.ts';
import type { WebhookCaller } from '../webhooks/types.ts';
import type { RandomSource } from '../util/clock-and-random.ts';

/** What conversion may need from the cluster: a webhook transport and request uids. */
export interface ConversionEnv {
  random: RandomSource;
  webhooks?: WebhookCaller;
}

export interface StorageCodec {
  /**
   * The object, at the served version, as it is to be stored (converted to the storage version).
   * Synchronous unless a conversion webhook is called; failures are StatusErrors.
   */
  encode(obj: KubeObject, env: ConversionEnv): KubeObject | Promise<KubeObject>;
  /**
   * Stored objects, in order, as the served version returns them. Objects already at that version
   * come back unchanged; the others are converted together (one webhook call for all of them).
   * `isList`: `objs` are the items of a list (list, deletecollection), so a failure is reported
   * with the list texts even for one item; otherwise `objs` is the one object of a get, a write or
   * a watch event.
   */
  decode(objs: readonly KubeObject[], env: ConversionEnv, isList: boolean): KubeObject[] | Promise<KubeObject[]>;
}
