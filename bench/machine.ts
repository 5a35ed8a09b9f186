// What every figure is reported with: the machine's load, and cases timed interleaved so that
// drift, GC and other processes fall on all of them alike.
import { cpus, loadavg } from 'node:os';

/** `load 1.23 (1 min) on 2 CPUs` */
export function loadNote(): string {
  return `load ${loadavg()[0]!.toFixed(2)} (1 min) on ${cpus().length} CPUs`;
}

export interface Rounds {
  name: string;
  /** One sample per round, in ms. */
  samples: number[];
  /** The process's CPU time (user + system) of each sample, in ms: far less affected than wall time by other processes holding the CPUs. */
  cpuSamples: number[];
}

/**
 * Runs every case once per round, in an order shuffled afresh each round, for `rounds` rounds
 * after `warmup` untimed ones; answers each case's samples. Load average (1 min) is read before
 * and after. A fixed order rotated per round (as this did before) keeps each case behind the same
 * neighbour, so a case always paid for the garbage one particular other case left (paginating
 * followed parsing 100,000 objects in four rounds of five); shuffled, the neighbours vary.
 * `settle` runs before every case, untimed (the lists collect garbage there, so that no case
 * pays for another's).
 */
export async function interleavedRounds(
  cases: Array<[string, () => unknown]>,
  rounds: number,
  warmup = 1,
  settle?: () => void,
): Promise<{ results: Rounds[]; loadBefore: number; loadAfter: number }> {
  const loadBefore = loadavg()[0]!;
  const samples = cases.map(() => [] as number[]);
  const cpuSamples = cases.map(() => [] as number[]);
  const random = seededRandom(cases.length);
  for (let r = 0; r < warmup + rounds; r++) {
    for (const index of shuffled(cases.length, random)) {
      settle?.();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await cases[index]![1]();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      if (r >= warmup) {
        samples[index]!.push(wall);
        cpuSamples[index]!.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  return { results: cases.map(([name], i) => ({ name, samples: samples[i]!, cpuSamples: cpuSamples[i]! })), loadBefore, loadAfter: loadavg()[0]! };
}

/** mulberry32: the same orders on every run, so two runs of a bench time the same sequence. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 0 … n-1 in a Fisher–Yates order. */
function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function quantile(samples: readonly number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
