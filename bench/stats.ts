// Timing helpers the benchmark sections share: repeated timing of one case, and a markdown table.

export interface Stats {
  name: string;
  iterations: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `fn` `warmup` times untimed, then `iterations` times timed, one after another. */
export async function measure(name: string, iterations: number, fn: () => Promise<unknown>, warmup = 200): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return summarize(name, samples);
}

export function summarize(name: string, samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { name, iterations: sorted.length, meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length, p50Ms: pick(0.5), p99Ms: pick(0.99) };
}

export function table(rows: Stats[]): string {
  const lines = ['| case | iterations | mean (ms) | p50 (ms) | p99 (ms) |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.iterations} | ${r.meanMs.toFixed(3)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`);
  return lines.join('\n');
}
