// The cluster services the registry pipeline needs, kept abstract so deterministic mode can swap them.
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';
import type { WebhookCaller } from '../webhooks/types.ts';
import type { AdmissionChain } from './admission.ts';
import type { AccessReviewer, TokenReviewer } from '../apis/resource-type.ts';

export interface RegistryContext {
  store: VersionedStore;
  clock: Clock;
  random: RandomSource;
  /** How conversion (and later admission) webhooks are called; none means every call fails. */
  webhooks?: WebhookCaller;
  /** The admission chain every write runs (admission.ts); none admits everything. */
  admission?: AdmissionChain;
  /** The authorizer of a cluster that authorizes (auth: true), for the review APIs. */
  access?: AccessReviewer;
  /** The token authenticator of a cluster that authenticates (auth: true), for TokenReview. */
  tokens?: TokenReviewer;
}
