// Shared Jest settings: native ESM (MikroORM 7, @nats-io and cookie@2 are ESM-only),
// TypeScript compiled by swc. Run with NODE_OPTIONS=--experimental-vm-modules.
export const preset = {
  testEnvironment: 'node',
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
