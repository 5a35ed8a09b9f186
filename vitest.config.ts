import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// `npx vitest` on an unsupported Node.js: one sentence and exit 1 (npm test checks even earlier).
(createRequire(import.meta.url)('./bin/node-support.cjs') as { exitIfUnsupported(): void }).exitIfUnsupported();

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

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
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'docs/**/*.test.ts'],
    // examples/jest is a Jest suite (npm run example:jest, part of npm test).
    exclude: [...configDefaults.exclude, 'examples/jest/**'],
    // Clusters share one msw network per process; files run in separate workers anyway.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
