// Cold start, measured in fresh processes: each sample is a new `node` running bench/cold-probe.ts,
// the cases interleaved round by round (rotating order) so load and disk cache fall on all alike.
// Imports the built package (this builds it first with `npm run build`). Run alone: node bench/cold-start.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { median, quantile } from './machine.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROBE = fileURLToPath(new URL('./cold-probe.ts', import.meta.url));

interface Step {
  wallMs: number;
  cpuMs: number;
}

/** BENCH_COLD_COMPARE: the directory of another build (e.g. main's dist) to measure side by side. */
const COMPARE = process.env.BENCH_COLD_COMPARE;

function sample(which: string): Record<string, Step> {
  const [probe, build] = which.split('@');
  const env = build === 'compare' ? { ...process.env, KUBEFAKE_DIST: COMPARE } : process.env;
  const result = spawnSync(process.execPath, [PROBE, probe!], { cwd: ROOT, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`cold probe ${which} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, Step>;
}

export async function coldStartSection(rounds = Number(process.env.BENCH_COLD_ROUNDS ?? 10)): Promise<string> {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const cases = ['client-node', 'kubefake-after-client-node', 'kubefake', 'first-answer'];
  if (COMPARE) cases.push('kubefake-after-client-node@compare', 'first-answer@compare');
  const samples = new Map<string, Record<string, Step>[]>(cases.map((c) => [c, []]));
  const loads: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    for (let k = 0; k < cases.length; k++) {
      const which = cases[(r + k) % cases.length]!;
      loads.push(loadavg()[0]!);
      const s = sample(which);
      if (r > 0) samples.get(which)!.push(s); // round 0 warms the disk cache
    }
  }
  const pick = (which: string, step: string, field: keyof Step) => samples.get(which)!.map((s) => s[step]![field]);
  const row = (label: string, which: string, step: string) => {
    const wall = pick(which, step, 'wallMs');
    const cpu = pick(which, step, 'cpuMs');
    return `| ${label} | ${wall.length} | ${median(wall).toFixed(1)} | ${quantile(wall, 0.9).toFixed(1)} | ${median(cpu).toFixed(1)} |`;
  };
  const own = median(pick('kubefake-after-client-node', 'import', 'wallMs'));
  const ownCpu = median(pick('kubefake-after-client-node', 'import', 'cpuMs'));
  const clientNode = median(pick('client-node', 'import', 'wallMs'));
  const first = median(pick('first-answer', 'answer', 'wallMs'));
  return `## Cold start (fresh processes)

Every sample is a fresh \`node\` process (bench/cold-probe.ts) importing the built package (\`dist/\`) as a user's test file does;
the ${cases.length} cases run interleaved, ${rounds} rounds after a round that warms the disk cache. Wall and CPU time are measured
inside the process around the step (process start-up itself is not included). Load average (1 min) at the samples:
median ${median(loads).toFixed(2)}, max ${Math.max(...loads).toFixed(2)}; CPU time depends less on other processes than wall time does.

| step | samples | median wall (ms) | p90 wall (ms) | median CPU (ms) |
| --- | ---: | ---: | ---: | ---: |
${row("import('@kubernetes/client-node') alone", 'client-node', 'import')}
${row('import kubefake after client-node (kubefake\'s own part)', 'kubefake-after-client-node', 'import')}
${row('import kubefake alone (client-node included)', 'kubefake', 'import')}
${row('fresh process, both imported: createFakeCluster() → first answered GET (client-node)', 'first-answer', 'answer')}
${row('… then a second cluster: create → first answered GET → close()', 'first-answer', 'second')}
${COMPARE ? `${row(`compared build (${COMPARE.replace(ROOT, '')}): import kubefake after client-node`, 'kubefake-after-client-node@compare', 'import')}
${row('compared build: fresh process, createFakeCluster() → first answered GET', 'first-answer@compare', 'answer')}
` : ''}
- kubefake's own import: **${own.toFixed(0)} ms** wall, ${ownCpu.toFixed(0)} ms CPU (target ≤ 150 ms); ${(own / clientNode).toFixed(2)}× client-node's own import.
${COMPARE ? `- Against the compared build: own import ${(own / median(pick('kubefake-after-client-node@compare', 'import', 'wallMs'))).toFixed(2)}× its wall time, ${(ownCpu / median(pick('kubefake-after-client-node@compare', 'import', 'cpuMs'))).toFixed(2)}× its CPU time.
` : ''}- A fresh process's first answer: **${first.toFixed(1)} ms** after \`createFakeCluster()\` is called (target ≤ 50 ms).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await coldStartSection());
  process.exit(0);
}
