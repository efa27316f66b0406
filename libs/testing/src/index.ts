export { TEST_DATABASE_URL, TEST_NATS_URL, createTestDatabase, type TestDatabase, type TestSchema } from './database';
export { createTestEvents, type TestEvents } from './events';
export { silentLogger } from './logger';
export { waitFor } from './wait-for';
export { statementsOf, statementsSent, type SentStatement } from './statements';
