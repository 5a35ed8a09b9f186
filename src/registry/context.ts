// The cluster services the registry pipeline needs, kept abstract so deterministic mode can swap them.
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { Clock, RandomSource } from '../util/clock-and-random.ts';
import type { WebhookCaller } from '../webhooks/types.ts';

export interface RegistryContext {
  store: VersionedStore;
  clock: Clock;
  random: RandomSource;
  /** How conversion (and later admission) webhooks are called; none means every call fails. */
  webhooks?: WebhookCaller;
}
