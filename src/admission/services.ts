// What admission plugins act on: kube-apiserver's plugins read informers and write through a
// loopback client; here they read the store and write through the registries clients use.
import type { ApiCatalog } from '../apis/catalog.ts';
import type { AccessReviewer } from '../apis/resource-type.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';
import type { WebhookCaller } from '../webhooks/types.ts';

export interface AdmissionServices {
  store: VersionedStore;
  catalog: ApiCatalog;
  clock: Clock;
  random: RandomSource;
  registryFor(type: ResourceType): GenericRegistry;
  /**
   * Resolves once the ServiceAccount controller has handled every namespace it has seen (the
   * ServiceAccount plugin waits on it where the real one retries the lookup of `default`); absent
   * where no ServiceAccount controller runs.
   */
  whenServiceAccountsSynced?(): Promise<void>;
  /** How admission webhooks are called (in-process handlers, then HTTPS); none fails every call. */
  webhooks?: WebhookCaller;
  /** The cluster's authorizer when it authorizes (auth: true): what the CEL `authorizer` asks. */
  access?: AccessReviewer;
}
