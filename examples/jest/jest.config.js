// Jest for kubefake: native ES modules (kubefake, @kubernetes/client-node 2.x and msw are ESM only),
// so Jest runs under `node --experimental-vm-modules` and TypeScript is compiled by @swc/jest to ES
// modules (not CommonJS). Run from the repository root: npm run example:jest
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  // .ts test files (and the sources they import) are ES modules; .js files follow their package.json "type".
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } }],
  },
  testMatch: ['<rootDir>/**/*.test.ts'],
  // A fresh cluster per test answers in milliseconds; the informer test waits on the store, not on timers.
  testTimeout: 20_000,
};
