import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EntitySchema } from '@mikro-orm/core';
import {
  ensureDatabaseExists,
  messagingUpgradeSql,
  openDatabase,
  withDatabaseName,
  type SqlMigration,
} from '@storefront/persistence';

/** The real Postgres server tests use (CI starts it). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The real NATS server with JetStream tests use. */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A service schema to have migrated in a test database (a service definition fits). */
export interface TestSchema {
  name: string;
  entities: EntitySchema<any, any>[];
  migrations: SqlMigration[];
}

/**
 * A fresh database on the real server; `drop()` removes it. Without schemas
 * it is empty. With schemas it is a copy of a template database those
 * schemas' migrations were run on once (`CREATE DATABASE ... TEMPLATE` takes
 * a fraction of running them for every test file). The template's name is a
 * hash of the migrations' SQL, so a changed migration builds a new one.
 */
export async function createTestDatabase(label: string, schemas: TestSchema[] = []): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const url = withDatabaseName(TEST_DATABASE_URL, name);
  if (schemas.length) {
    const template = await migratedTemplate(schemas);
    await withAdmin((admin) => admin.query(`create database "${name}" template "${template}"`));
  } else {
    await ensureDatabaseExists(url);
  }
  return {
    url,
    drop: () => withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: withDatabaseName(TEST_DATABASE_URL, 'postgres') });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const templates = new Map<string, Promise<string>>();

/** The name of a template database holding `schemas` migrated; built once per server and migration set. */
function migratedTemplate(schemas: TestSchema[]): Promise<string> {
  const hash = createHash('sha256');
  for (const schema of [...schemas].sort((a, b) => a.name.localeCompare(b.name))) {
    hash.update(`schema ${schema.name}\n`);
    for (const migration of schema.migrations) {
      hash.update(`migration ${migration.name}\n${(migration.statements ?? [migration.class.toString()]).join(';\n')}\n`);
    }
    hash.update(messagingUpgradeSql(schema.name).join(';\n'));
  }
  const template = `t_template_${hash.digest('hex').slice(0, 20)}`;
  let built = templates.get(template);
  if (!built) {
    built = buildTemplate(template, schemas).catch((err) => {
      templates.delete(template);
      throw err;
    });
    templates.set(template, built);
  }
  return built;
}

async function buildTemplate(template: string, schemas: TestSchema[]): Promise<string> {
  await withAdmin(async (admin) => {
    // Parallel Jest workers (and other checkouts on the same server) build it once: the
    // first takes the lock and builds, the others wait and find it there.
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      if ((await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount) return;
      // Built under a temporary name and renamed when complete, so a template that
      // exists is always whole (a build interrupted half-way leaves only a stray t_build_).
      const building = `t_build_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database "${building}"`);
      try {
        for (const schema of schemas) {
          const db = await openDatabase({
            url: withDatabaseName(TEST_DATABASE_URL, building),
            schema: schema.name,
            entities: schema.entities,
            migrations: schema.migrations,
            poolSize: 1,
          });
          try {
            await db.migrate();
          } finally {
            await db.close();
          }
        }
        // No connection may stay open on a template (CREATE DATABASE ... TEMPLATE refuses
        // to copy one in use); allow_connections = false keeps it that way.
        await admin.query(`alter database "${building}" with allow_connections false`);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [building],
        );
        await admin.query(`alter database "${building}" rename to "${template}"`);
      } catch (err) {
        await admin.query(`drop database if exists "${building}" with (force)`).catch(() => undefined);
        throw err;
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
  return template;
}
