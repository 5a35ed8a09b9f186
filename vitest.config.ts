import { configDefaults, defineConfig } from 'vitest/config';

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
