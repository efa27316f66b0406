import type { Logger } from 'pino';
import { createTestDatabase, createTestEvents, silentLogger, type TestDatabase } from '@storefront/testing';
import { PLATFORM_SERVICES, startPlatform, type Platform } from '../../src';

export const ADMIN = { login: 'admin', password: 'admin-password-1', email: 'admin@example.test' };

/**
 * The whole platform in-process for an end-to-end test file: a fresh database
 * on the real Postgres (every service's schema, copied from a template built
 * once from the migrations), an isolated stream on the real NATS, real gRPC
 * between gateway and services, HTTP from the test. One database holds the
 * seven schemas as in development (every query is schema-qualified): one
 * CREATE and one DROP DATABASE per file instead of seven, which the server
 * serialises behind checkpoints.
 */
export async function startStack(
  env: NodeJS.ProcessEnv = {},
  options: { logger?: (name: string) => Logger } = {},
): Promise<Platform> {
  const events = createTestEvents();
  let database: TestDatabase | undefined;
  const cleanup = async () => {
    await database?.drop();
    await events.cleanup();
  };
  try {
    database = await createTestDatabase(
      'platform',
      PLATFORM_SERVICES.map(({ definition }) => definition),
    );
    const platform = await startPlatform({
      databaseUrl: () => database!.url,
      env: {
        NODE_ENV: 'test',
        // 7 services x (4 ORM + 2 reader connections) = 42 per stack: two Jest workers' stacks plus
        // service tests stay under Postgres's default max_connections of 100.
        DB_POOL_SIZE: '4',
        SHUTDOWN_TIMEOUT_MS: '2000',
        SCRYPT_COST: '1024',
        // Deadlines fit a busy 2-core machine (20 concurrent checkouts and both cores
        // taken ran past 5 s); tests about deadlines set their own.
        GRPC_DEADLINE_MS: '30000',
        SERVICE_GRPC_DEADLINE_MS: '30000',
        SHOP_ADMIN_USER: ADMIN.login,
        SHOP_ADMIN_PASSWORD: ADMIN.password,
        SHOP_ADMIN_EMAIL: ADMIN.email,
        ...events.env,
        ...env,
      },
      port: 0,
      parallel: true,
      logger: options.logger ?? (() => silentLogger()),
    });
    return {
      ...platform,
      async stop() {
        await platform.stop();
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
