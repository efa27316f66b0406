import type { TObject } from 'typebox';
import { createTestDatabase, createTestEvents, silentLogger, type TestEvents } from '@storefront/testing';
import { startService, type RunningService } from './start-service';
import type { ServiceDefinition } from './service-definition';

export interface TestService extends RunningService {
  /** The environment it was started with (reuse it to restart on the same database). */
  env: NodeJS.ProcessEnv;
}

/**
 * Starts a service in-process on port 0 against a fresh database on the real
 * Postgres and the real NATS; `stop()` also drops the database (and the
 * stream, when the test did not pass its own `events`).
 */
export async function startTestService<S extends TObject>(
  definition: ServiceDefinition<S>,
  options: { env?: NodeJS.ProcessEnv; events?: TestEvents } = {},
): Promise<TestService> {
  const database = await createTestDatabase(definition.name, [definition]);
  const events = options.events ?? createTestEvents();
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '-1',
    DATABASE_URL: database.url,
    DB_POOL_SIZE: '5',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...events.env,
    ...options.env,
  };
  try {
    const service = await startService(definition, { env, logger: silentLogger() });
    return {
      ...service,
      env,
      async stop() {
        await service.stop();
        await database.drop();
        if (!options.events) await events.cleanup();
      },
    };
  } catch (err) {
    await database.drop();
    if (!options.events) await events.cleanup();
    throw err;
  }
}
