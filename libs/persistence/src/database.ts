import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { EntitySchema } from '@mikro-orm/core';
import { ensureDatabaseExists } from './database-url';
import { InboxEntry, messagingUpgradeSql, OutboxMessage, ParkedEvent } from './messaging-tables';
import type { SqlMigration } from './migrations';
import { Reader } from './reader';

export interface DatabaseOptions {
  /** postgres:// URL of this service's own database. */
  url: string;
  /** Postgres schema that holds every table of the service (its name, e.g. `customers`). */
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: SqlMigration[];
  poolSize?: number;
  /** Create the database when missing (development, tests); off for provisioned databases. */
  createDatabase?: boolean;
  /** Prepare hot-read statements (off on embedded PGlite, where connections share one backend). */
  preparedStatements?: boolean;
  /** Hot reads always use the generic plan of their prepared statement (no per-call planning; see Reader). */
  readerGenericPlans?: boolean;
  /** Told about connection-level failures (logged by the service kit); the pools recover by themselves. */
  onConnectionError?: (err: Error) => void;
  /** Called with every new pg connection of both pools (statement tracing wraps its `query`). */
  onClient?: (client: { query: (...args: any[]) => unknown }) => void;
}

export interface Database {
  orm: MikroORM;
  schema: string;
  /** A fresh EntityManager for one unit of work. */
  em(): EntityManager;
  /** Plain-row reads for hot paths, with prepared statements (see Reader). */
  reader: Reader;
  /**
   * Says a statement outside MikroORM committed outbox rows (see
   * `outboxInsert` in @storefront/events): the relay drains now rather than at
   * its next poll. MikroORM commits that wrote the outbox wake it by themselves.
   */
  outboxWritten(): void;
  /** Listens for `outboxWritten` (the relay); returns the unsubscribe. */
  onOutboxWritten(listener: () => void): () => void;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a service's database through MikroORM. Every table lives in the
 * service's own schema and every query is schema-qualified, so one embedded
 * Postgres (PGlite) can hold every service in development without a shared
 * search_path.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.createDatabase) await ensureDatabaseExists(options.url);
  const config: Options = {
    clientUrl: options.url,
    schema: options.schema,
    entities: [...options.entities, OutboxMessage, InboxEntry, ParkedEvent],
    extensions: [Migrator],
    migrations: {
      tableName: `${options.schema}.mikro_orm_migrations`,
      migrationsList: options.migrations,
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: options.poolSize ?? 10 },
    driverOptions: {
      connectionTimeoutMillis: 5000,
      // MikroORM logs dropped connections only in debug mode; tell the service too.
      onPoolCreated: (pool: { on(event: string, listener: (arg: any) => void): void }) => {
        if (options.onConnectionError) pool.on('error', options.onConnectionError);
        if (options.onClient) pool.on('connect', options.onClient);
      },
    },
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    // Several services share a process (npm start, tests): each ORM finds only its own transaction
    // context. With one shared name, an event delivered in-process inside another service's
    // transaction made this service's queries run on that service's entity manager.
    contextName: options.schema,
    debug: false,
  };
  const orm = await MikroORM.init(config);
  const reader = new Reader(
    options.url,
    Math.max(2, Math.ceil((options.poolSize ?? 10) / 2)),
    options.preparedStatements ?? true,
    options.onConnectionError,
    options.onClient,
    options.readerGenericPlans ?? false,
  );
  const outboxListeners = new Set<() => void>();
  return {
    orm,
    schema: options.schema,
    em: () => orm.em.fork(),
    reader,
    outboxWritten: () => outboxListeners.forEach((listener) => listener()),
    onOutboxWritten(listener) {
      outboxListeners.add(listener);
      return () => outboxListeners.delete(listener);
    },
    async migrate() {
      await orm.em.getConnection().execute(`create schema if not exists "${options.schema}"`);
      const done = await orm.migrator.up();
      // The messaging tables belong to this library: their later columns are
      // added here, so no service needs a migration of its own for them.
      for (const statement of messagingUpgradeSql(options.schema)) await orm.em.getConnection().execute(statement);
      return done.map((m) => m.name);
    },
    async ping() {
      // A pooled connection the server dropped fails once before the pool discards
      // it; that is not the database being down, so retry on fresh connections.
      for (let attempt = 1; ; attempt++) {
        try {
          await orm.em.getConnection().execute('select 1');
          return;
        } catch (err) {
          if (attempt >= 3) throw err;
        }
      }
    },
    async close() {
      await reader.close();
      await orm.close(true);
    },
  };
}
