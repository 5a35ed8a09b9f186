// The cluster services the registry pipeline needs, kept abstract so deterministic mode can swap them.
import type { VersionedStore } from '../storage/versioned-store.ts';
import type { WebhookCaller } from '../webhooks/types.ts';

export interface Clock {
  now(): Date;
}

export interface RandomSource {
  /** A v4 UUID string. */
  uid(): string;
  /** One character from the given alphabet (used for generateName suffixes). */
  pick(alphabet: string): string;
}

export interface RegistryContext {
  store: VersionedStore;
  clock: Clock;
  random: RandomSource;
  /** How conversion (and later admission) webhooks are called; none means every call fails. */
  webhooks?: WebhookCaller;
}

export const systemClock: Clock = { now: () => new Date() };

export const cryptoRandom: RandomSource = {
  uid: () => crypto.randomUUID(),
  pick: (alphabet) => alphabet[Math.floor(Math.random() * alphabet.length)]!,
};

/** RFC 3339 in UTC with seconds precision, as metav1.Time serialises. */
export function formatTimestamp(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
