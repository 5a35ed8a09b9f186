// Deterministic mode: which clock and which random source a cluster runs on, from its options.
import { cryptoRandom, type Clock, type RandomSource } from '../util/clock-and-random.ts';
import { DEFAULT_FROZEN_INSTANT, frozenClock, offsetClock, type ClusterClock, type Instant } from './clock.ts';
import { DEFAULT_SEED, seededRandom, type Seed } from './seeded-random.ts';

export interface DeterminismOptions {
  deterministic?: boolean;
  clock?: Instant | Clock;
  seed?: Seed;
}

export interface Determinism {
  clock: ClusterClock;
  random: RandomSource;
  /** Both time and identifiers repeat from run to run: snapshots need no normalising. */
  reproducible: boolean;
}

export function resolveDeterminism(options: DeterminismOptions): Determinism {
  const { clock: clockOption, seed } = options;
  let clock: ClusterClock;
  if (isClock(clockOption)) clock = offsetClock(clockOption);
  else if (clockOption !== undefined) clock = frozenClock(clockOption);
  else clock = options.deterministic ? frozenClock(DEFAULT_FROZEN_INSTANT) : offsetClock();
  const seeded = seed !== undefined || !!options.deterministic;
  const random = seeded ? seededRandom(seed ?? DEFAULT_SEED) : cryptoRandom;
  return { clock, random, reproducible: clock.frozen && seeded };
}

function isClock(value: unknown): value is Clock {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && typeof (value as Clock).now === 'function';
}
