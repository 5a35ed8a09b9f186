import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Clusters share one msw network per process; files run in separate workers anyway.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
