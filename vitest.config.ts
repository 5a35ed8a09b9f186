import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

// `npx vitest` on an unsupported Node.js: one sentence and exit 1 (npm test checks even earlier).
(createRequire(import.meta.url)('./bin/node-support.cjs') as { exitIfUnsupported(): void }).exitIfUnsupported();

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // examples/jest is a Jest suite (npm run example:jest, part of npm test).
    exclude: [...configDefaults.exclude, 'examples/jest/**'],
    // Clusters share one msw network per process; files run in separate workers anyway.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
