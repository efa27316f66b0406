import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ensureDatabaseExists, withDatabaseName } from '@storefront/persistence';

/** The real Postgres server tests use (CI starts it). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The real NATS server with JetStream tests use. */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the real server; `drop()` removes it. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const url = withDatabaseName(TEST_DATABASE_URL, name);
  await ensureDatabaseExists(url);
  return {
    url,
    async drop() {
      const admin = new pg.Client({ connectionString: withDatabaseName(TEST_DATABASE_URL, 'postgres') });
      await admin.connect();
      try {
        await admin.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}
