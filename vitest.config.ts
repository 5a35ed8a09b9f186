import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// `npx vitest` on an unsupported Node.js: one sentence and exit 1 (npm test checks even earlier).
(createRequire(import.meta.url)('./bin/node-support.cjs') as { exitIfUnsupported(): void }).exitIfUnsupported();

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const exclude = [...configDefaults.exclude, 'examples/jest/**'];

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
          // Files that never reach a cluster through client-node: nothing of theirs depends on the transport.
          exclude: [
            ...exclude,
            'test/cel.test.ts',
            'test/cel-engine-isolation.test.ts',
            'test/cel-equality.test.ts',
            'test/cel-spec.test.ts',
            'test/cel-timestamps-strings.test.ts',
            'test/cel-values.test.ts',
            'test/go-format.test.ts',
            'test/cli.test.ts',
            'test/admission-webhooks-serve.test.ts',
            'test/cel-cost-estimation.test.ts',
            'test/architecture.test.ts',
            'test/builtin-catalogue-generator.test.ts',
            'test/docs.test.ts',
          ],
          env: { KUBEFAKE_TRANSPORT: 'msw' },
        },
      },
    ],
  },
});
