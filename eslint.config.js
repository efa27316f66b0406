import { existsSync, readdirSync, readFileSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// Read from apps/*/{project,package}.json so a new app is covered without an edit here.
const appDirs = readdirSync(new URL('./apps', import.meta.url), { withFileTypes: true })
  .filter((dir) => dir.isDirectory())
  .map((dir) => dir.name);
const appFile = (dir, file) => {
  const url = new URL(`./apps/${dir}/${file}`, import.meta.url);
  return existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) : undefined;
};
/** Every app's own `scope:<svc>` tag. */
const appScopes = appDirs.flatMap((dir) => appFile(dir, 'project.json')?.tags ?? []).filter((tag) => tag.startsWith('scope:'));
/** Every app's package (`@storefront/<svc>`): what the platform composition may import. */
const appPackages = appDirs.map((dir) => appFile(dir, 'package.json')?.name).filter(Boolean);

/**
 * Ownership: a team's app (`scope:<svc>`) depends only on shared libs
 * (`scope:shared`: the kit, errors, events, common + health protos in
 * libs/proto), on services' contracts (`scope:contract`: each service's
 * generated proto client libs/proto/<svc>, its events libs/domain-events/<svc>,
 * the customers store-settings client) or on libs of its own scope. Shared libs
 * depend only on shared libs (so a service's proto change never reaches the
 * kit, nor through it every app); contracts on shared libs and contracts.
 * Never on another service's code.
 */
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:contract', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contract'] },
  ...[...new Set(appScopes)]
    .filter((tag) => tag !== 'scope:platform')
    .map((tag) => ({ sourceTag: tag, onlyDependOnLibsWithTags: ['scope:shared', 'scope:contract', tag] })),
];

export default [
  { ignores: ['**/dist', '**/node_modules', 'libs/proto/**/src/gen/**', '.data/**', '.tools/**', '**/jest.config.js'] },
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
            ...scopeConstraints,
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
          allow: appPackages,
          depConstraints: [{ sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] }],
        },
      ],
    },
  },
  // Layers inside a service point one way (architecture.md rule 9): grpc/ -> domain/ -> persistence/.
  {
    files: ['apps/*/src/persistence/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Types too: the records persistence stores live in persistence/, and the domain imports them.
              regex: '(^|/)domain(/|$)',
              message: 'persistence/ never imports domain/ (layers: grpc -> domain -> persistence); define the record type in persistence/.',
            },
            { regex: '(^|/)grpc(/|$)', message: 'persistence/ never imports grpc/ (layers: grpc -> domain -> persistence).' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/*/src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)grpc(/|$)', message: 'domain/ never imports grpc/ (layers: grpc -> domain -> persistence).' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='execute'], CallExpression[callee.name='execute']",
          message: 'No SQL in domain/: run statements from a persistence/ function.',
        },
        {
          selector: String.raw`Literal[value=/\b(select\s[\s\S]*\sfrom|insert\s+into|update\s[\s\S]*\sset|delete\s+from)\s/i]`,
          message: 'No SQL text in domain/: move the statement into persistence/.',
        },
        {
          selector: String.raw`TemplateElement[value.raw=/\b(select\s[\s\S]*\sfrom|insert\s+into|update\s[\s\S]*\sset|delete\s+from|where\s+"\w+"\.|from\s+"\w+"\.|\bwhere\s+$)/i]`,
          message: 'No SQL text in domain/: move the statement into persistence/.',
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
