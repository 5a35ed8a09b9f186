import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { TRANSPORT_INDEPENDENT_FILES } from './test/support/msw-project.ts';

// `npx vitest` on an unsupported Node.js: one sentence and exit 1 (npm test checks even earlier).
(createRequire(import.meta.url)('./bin/node-support.cjs') as { exitIfUnsupported(): void }).exitIfUnsupported();

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const exclude = [...configDefaults.exclude, 'examples/jest/**'];

// The workers and every Node process a test spawns (`kubefake serve`, the probes) inherit this:
// V8 keeps the code it compiled (node_modules, and src/ as the child processes load it) on disk
// and the next process starts from it, about half the CPU of loading kubefake and client-node.
// An optimisation only: Node checks each entry against the file, and NODE_COMPILE_CACHE or
// NODE_DISABLE_COMPILE_CACHE=1 set by the caller win (Vitest turns it off itself for v8 coverage).
process.env.NODE_COMPILE_CACHE ??= source('./node_modules/.cache/kubefake-compile-cache');

export default defineConfig({
  // The docs' examples (docs/examples) import the package by name, as a user would; here that is the source.
  resolve: {
    alias: [
      { find: /^kubefake$/, replacement: source('./src/index.ts') },
      { find: /^kubefake\/vitest$/, replacement: source('./src/vitest.ts') },
      { find: /^kubefake\/cel$/, replacement: source('./src/cel/index.ts') },
    ],
  },
  test: {
    // examples/jest is a Jest suite (npm run example:jest, part of npm test).
    exclude,
    // Test files share a worker's module graph instead of re-evaluating kubefake and client-node
    // for every file (that was ~43% of a run). Nothing a test relies on lives in module state: each
    // test opens and closes its own clusters (one msw network per process, one host per cluster),
    // and the one test about a pristine module graph (cel-engine-isolation) makes its own in a
    // worker thread. Checked by whole runs in file order and shuffled (--sequence.shuffle).
    isolate: false,
    // Vitest's default is one worker less than the CPUs: a single worker on a 2-CPU machine, which
    // left a CPU idle for the whole run (the main process does little once files are transformed)
    // and, while a test slept (a 3 s "too large resourceVersion" wait, a webhook timeout), both.
    // One per CPU up to two; more CPUs keep the default.
    maxWorkers: Math.max(Math.min(2, availableParallelism()), availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // `cluster.kubeConfig` has two transports a client must not be able to tell apart: the
    // in-process undici Dispatcher (the default) and the msw interception every other client
    // uses. The behaviour suite runs on both (`--project dispatcher` or `--project msw` picks one).
    projects: [
      {
        extends: true,
        test: {
          name: 'dispatcher',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'docs/**/*.test.ts'],
          env: { KUBEFAKE_TRANSPORT: 'dispatcher' },
        },
      },
      {
        extends: true,
        test: {
          name: 'msw',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts', 'docs/**/*.test.ts'],
          // Files none of whose clients goes through cluster.kubeConfig (kubectl or serve processes
          // over HTTP, handle(), no cluster at all): they would run the same twice. Listed, each with
          // its reason, in test/support/msw-project.ts, which test/msw-project.test.ts checks.
          exclude: [...exclude, ...Object.keys(TRANSPORT_INDEPENDENT_FILES)],
          env: { KUBEFAKE_TRANSPORT: 'msw' },
        },
      },
    ],
  },
});
