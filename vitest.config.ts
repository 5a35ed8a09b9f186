import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // examples/jest is a Jest suite (npm run example:jest, part of npm test).
    exclude: [...configDefaults.exclude, 'examples/jest/**'],
    // Test files share a worker's module graph instead of re-evaluating kubefake and client-node
    // for every file (that was ~43% of a run). Nothing a test relies on lives in module state: each
    // test opens and closes its own clusters (one msw network per process, one host per cluster),
    // and the one test about a pristine module graph (cel-engine-isolation) makes its own in a
    // worker thread. Checked by whole runs in file order and shuffled (--sequence.shuffle).
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
