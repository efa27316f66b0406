import type { Logger } from 'pino';
import { createTestDatabase, createTestEvents, silentLogger, type TestDatabase } from '@storefront/testing';
import { PLATFORM_SERVICES, startPlatform, type Platform } from '../../src';

export const ADMIN = { login: 'admin', password: 'admin-password-1', email: 'admin@example.test' };

/**
 * The whole platform in-process for an end-to-end test file: a fresh database
 * per service on the real Postgres, an isolated stream on the real NATS, real
 * gRPC between gateway and services, HTTP from the test.
 */
export async function startStack(
  env: NodeJS.ProcessEnv = {},
  options: { logger?: (name: string) => Logger } = {},
): Promise<Platform> {
  const events = createTestEvents();
  const databases = new Map<string, TestDatabase>();
  const cleanup = async () => {
    await Promise.all([...databases.values()].map((db) => db.drop()));
    await events.cleanup();
  };
  try {
    for (const { definition } of PLATFORM_SERVICES) {
      databases.set(definition.name, await createTestDatabase(definition.name));
    }
    const platform = await startPlatform({
      databaseUrl: (service) => databases.get(service)!.url,
      env: {
        NODE_ENV: 'test',
        DB_POOL_SIZE: '5',
        SHUTDOWN_TIMEOUT_MS: '2000',
        SCRYPT_COST: '1024',
        SHOP_ADMIN_USER: ADMIN.login,
        SHOP_ADMIN_PASSWORD: ADMIN.password,
        SHOP_ADMIN_EMAIL: ADMIN.email,
        ...events.env,
        ...env,
      },
      port: 0,
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
