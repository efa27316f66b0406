// Shared Jest settings: native ESM (MikroORM 7, @nats-io and cookie@2 are ESM-only),
// TypeScript compiled by swc. Run with NODE_OPTIONS=--experimental-vm-modules.
export const preset = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
      },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

export function projectConfig(displayName) {
  return { ...preset, displayName };
}
