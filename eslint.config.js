import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist', '**/node_modules', 'libs/proto/src/gen/**', '.data/**', '.tools/**', '**/jest.config.js'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      // Apps depend on libs, never on each other; the platform composition and tools may depend on apps.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The platform composition (dev launcher, e2e tests, bench) is the one place that assembles apps.
    files: ['apps/platform/**/*.ts', 'tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [
            '@storefront/customers',
            '@storefront/catalog',
            '@storefront/fulfillment',
            '@storefront/payments',
            '@storefront/cart',
            '@storefront/gateway',
            '@storefront/platform',
          ],
          depConstraints: [{ sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] }],
        },
      ],
    },
  },
  {
    // Tests may boot other services (a real customers service beside catalog, say).
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
