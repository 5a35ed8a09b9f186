// Work scheduled for a time on the cluster clock (a container that starts after a delay, a grace
// period that runs out, the next schedule of a CronJob). With a frozen clock nothing is due until
// the test moves the clock (clock.advance()/set() call poll()); with a moving clock a real timer
// polls when the earliest item falls due. A due item only queues work, so it is cheap and ordered.
import type { Clock } from '../../util/clock-and-random.ts';

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

export class ClockTimers {
  private readonly clock: Clock;
  private readonly frozen: boolean;
  private timers: Timer[] = [];
  private seq = 0;
  private realTimer: ReturnType<typeof setTimeout> | undefined;
  private realTimerAt = Infinity;
  private stopped = false;

  constructor(clock: Clock, frozen: boolean) {
    this.clock = clock;
    this.frozen = frozen;
  }

  /** Runs `fire` once the clock reads `at` (milliseconds since the epoch) or later: at once if it already does. */
  at(at: number, fire: () => void): void {
    if (this.stopped) return;
    if (at <= this.clock.now().getTime()) {
      fire();
      return;
    }
    this.timers.push({ at, seq: this.seq++, fire });
    this.armRealTimer();
  }

  /** Fires every item now due, earliest first (ties in the order they were scheduled). */
  poll(): void {
    if (this.stopped || this.timers.length === 0) return;
    const now = this.clock.now().getTime();
    const due = this.timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq);
    if (due.length === 0) return;
    this.timers = this.timers.filter((t) => t.at > now);
    for (const t of due) t.fire();
    this.armRealTimer();
  }

  /** How many items wait for a later time. */
  get pending(): number {
    return this.timers.length;
  }

  stop(): void {
    this.stopped = true;
    this.timers = [];
    if (this.realTimer) clearTimeout(this.realTimer);
  }

  private armRealTimer(): void {
    if (this.frozen || this.timers.length === 0) return;
    const next = Math.min(...this.timers.map((t) => t.at));
    if (this.realTimer && this.realTimerAt <= next) return;
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimerAt = next;
    // Node caps a timeout at 2^31-1 ms; a later item re-arms when this one fires.
    const delay = Math.min(Math.max(0, next - this.clock.now().getTime()), 2 ** 31 - 1);
    this.realTimer = setTimeout(() => {
      this.realTimer = undefined;
      this.realTimerAt = Infinity;
      this.poll();
      this.armRealTimer();
    }, delay);
    this.realTimer.unref();
  }
}
