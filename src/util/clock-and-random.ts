// The two cluster services whose real versions vary between runs: the time and random choices
// (uids, generateName suffixes). Kept abstract so deterministic mode can swap them; the types and
// resource strategies take them as parameters, the registry carries them in its context.

export interface Clock {
  now(): Date;
}

export interface RandomSource {
  /** A v4 UUID string. */
  uid(): string;
  /** One character from the given alphabet (used for generateName suffixes). */
  pick(alphabet: string): string;
}

export const systemClock: Clock = { now: () => new Date() };

export const cryptoRandom: RandomSource = {
  uid: () => crypto.randomUUID(),
  pick: (alphabet) => alphabet[Math.floor(Math.random() * alphabet.length)]!,
};
