// The production-shape smoke test: its own Jest run (npm test's `prod` step),
// never beside the other projects' workers, since it starts eight processes.
import { preset } from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'prod',
  rootDir: '.',
  testMatch: ['<rootDir>/*.test.ts'],
  // Building, migrating and booting eight processes takes 20-60 s idle and
  // up to ~3 min on a loaded 2-core machine; each hook gets its own budget.
  testTimeout: 300_000,
};
