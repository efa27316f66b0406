// Every project's tests in one Jest run (used by `npm test`).
// `testTimeout` is a global option: in a multi-project run Jest ignores the
// projects' own values, so the budget that fits starting a whole stack
// (databases, migrations, NATS stream, gRPC servers) on a loaded 2-core
// machine is set here, once, for every project.
import { TEST_TIMEOUT_MS } from './jest.preset.js';

export default {
  testTimeout: TEST_TIMEOUT_MS,
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
};
