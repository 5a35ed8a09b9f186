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
 * Runs every case once per round, rotating which goes first, for `rounds` rounds after `warmup`
 * untimed ones; answers each case's samples. Load average (1 min) is read before and after.
 */
export async function interleavedRounds(
  cases: Array<[string, () => unknown]>,
  rounds: number,
  warmup = 1,
): Promise<{ results: Rounds[]; loadBefore: number; loadAfter: number }> {
  const loadBefore = loadavg()[0]!;
  const samples = cases.map(() => [] as number[]);
  const cpuSamples = cases.map(() => [] as number[]);
  for (let r = 0; r < warmup + rounds; r++) {
    for (let k = 0; k < cases.length; k++) {
      const index = (r + k) % cases.length;
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

export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function quantile(samples: readonly number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
