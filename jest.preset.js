// Shared Jest settings: native ESM (MikroORM 7, @nats-io and cookie@2 are ESM-only),
// TypeScript compiled by swc. Run with NODE_OPTIONS=--experimental-vm-modules.
/**
 * Per test and per hook (beforeAll starting a stack included). Measured: a
 * stack start takes 3-6 s on an idle machine and 20-40 s with both cores
 * busy. Applies to single-project runs (`jest -c apps/x/jest.config.js`,
 * where the project config is the global one) and, through the root
 * jest.config.js, to `npm test`.
 */
export const TEST_TIMEOUT_MS = Number(process.env.JEST_TEST_TIMEOUT_MS ?? 120_000);

export const preset = {
  testEnvironment: 'node',
  testTimeout: TEST_TIMEOUT_MS,
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    'node_modules/(content-disposition|cookie)/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
      },
    ],
  },
  // A few CommonJS dependencies require ESM-only packages (@fastify/static ->
  // content-disposition, light-my-request -> cookie); Jest cannot require(esm), so those are compiled to CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|cookie)/)'],
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

export function projectConfig(displayName) {
  return { ...preset, displayName };
}
