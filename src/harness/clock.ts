// The cluster's clock: every timestamp the cluster writes (creation, deletion, conditions) and every
// age it prints reads it, so a test can freeze time at a known instant and move it on demand.
import type { Clock } from '../util/clock-and-random.ts';

/** An instant: a Date, an RFC 3339 string, or milliseconds since the epoch. */
export type Instant = Date | string | number;

/** The clock a cluster runs on (`cluster.clock`). */
export interface ClusterClock extends Clock {
  /** The cluster's current time. */
  now(): Date;
  /** Moves the clock forward by `ms` milliseconds (a frozen clock stays frozen at the new instant); answers the new time. */
  advance(ms: number): Date;
  /** Moves the clock to `instant` (backwards too: it is a test clock, not a monotonic one). */
  set(instant: Instant): void;
  /** True when the clock only moves through advance() and set() (deterministic mode or a `clock` start instant). */
  readonly frozen: boolean;
}

/** Where a deterministic cluster's clock starts when no instant is given. */
export const DEFAULT_FROZEN_INSTANT = '2025-01-01T00:00:00Z';

export function toMillis(instant: Instant, what = 'instant'): number {
  const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new TypeError(`kubefake: ${what} is not a valid time: ${String(instant)}`);
  return ms;
}

/** A clock frozen at `start` that moves only when told to. */
export function frozenClock(start: Instant): ClusterClock {
  let current = toMillis(start, 'clock');
  return {
    frozen: true,
    now: () => new Date(current),
    advance(ms) {
      current += checkedStep(ms);
      return new Date(current);
    },
    set(instant) {
      current = toMillis(instant);
    },
  };
}

/** Real time (or `base`'s time) plus an offset that advance() and set() move. */
export function offsetClock(base: Clock = { now: () => new Date() }): ClusterClock {
  let offset = 0;
  const now = () => new Date(base.now().getTime() + offset);
  return {
    frozen: false,
    now,
    advance(ms) {
      offset += checkedStep(ms);
      return now();
    },
    set(instant) {
      offset = toMillis(instant) - base.now().getTime();
    },
  };
}

function checkedStep(ms: number): number {
  if (!Number.isFinite(ms)) throw new TypeError(`kubefake: clock.advance() needs a finite number of milliseconds, got ${String(ms)}`);
  return ms;
}

/** Calls `listener` after every advance() and set() of the clock (the cluster's timers poll on it). */
export function onClockMove(clock: ClusterClock, listener: () => void): void {
  const { advance, set } = clock;
  clock.advance = (ms) => {
    const now = advance(ms);
    listener();
    return now;
  };
  clock.set = (instant) => {
    set(instant);
    listener();
  };
}
