import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import pg from 'pg';
import { isConnectionLost, openDatabase, Reader, sqlMigration, messagingTablesSql, type Database, withDatabaseName } from '../src';

const Widget = defineEntity({
  name: 'Widget',
  tableName: 'widgets',
  properties: { id: p.integer().primary().autoincrement(), name: p.string() },
});

const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `persistence_test_${process.pid}`;
let db: Database;
const connectionErrors: Error[] = [];

beforeAll(async () => {
  db = await openDatabase({
    onConnectionError: (err) => void connectionErrors.push(err),
    url: withDatabaseName(base, dbName),
    schema: 'widgets_svc',
    entities: [Widget],
    createDatabase: true,
    migrations: [
      sqlMigration('0001_initial', [
        ...messagingTablesSql('widgets_svc'),
        `create table "widgets_svc"."widgets" ("id" serial primary key, "name" varchar(255) not null)`,
      ]),
    ],
  });
});

afterAll(async () => {
  await db.close();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
});

describe('openDatabase', () => {
  it('runs migrations once and maps entities into the service schema', async () => {
    expect(await db.migrate()).toEqual(['0001_initial']);
    expect(await db.migrate()).toEqual([]);
    const em = db.em();
    em.create(Widget, { name: 'bolt' });
    await em.flush();
    const rows = await db.em().execute('select name from "widgets_svc"."widgets"');
    expect(rows).toEqual([{ name: 'bolt' }]);
  });

  it('has no drift between entities and migrations', async () => {
    const diff = await db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});

describe('a dropped connection (restart, failover, pg_terminate_backend)', () => {
  it('is survived by the ORM pool and the prepared-statement reader: logged, reconnected, no process exit', async () => {
    await db.migrate();
    // Warm both pools so they hold idle connections, then cut every one of them.
    expect(await db.reader.query('select 1 as one where 1 = ?', [1])).toEqual([{ one: 1 }]);
    await db.ping();
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [dbName]);
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    // An idle client's 'error' event reaches the listener instead of crashing the process.
    const deadline = Date.now() + 5000;
    while (!connectionErrors.length && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(connectionErrors.length).toBeGreaterThan(0);
    // Both pools open fresh connections; the prepared statement is prepared again on them.
    let reads = 0;
    for (let i = 0; i < 3 && reads === 0; i++) {
      reads = await db.reader.query('select 1 as one where 1 = ?', [1]).then((r) => r.length, () => 0);
    }
    expect(reads).toBe(1);
    await db.ping();
    expect(await db.em().execute('select 2 as two')).toEqual([{ two: 2 }]);
  });
});

describe('a pool with every connection busy', () => {
  it('fails a read after its connection timeout as a lost connection (503, retry), not an internal error', async () => {
    const reader = new Reader(withDatabaseName(base, dbName), 1, true);
    try {
      const busy = reader.query('select pg_sleep(6)');
      const err = await reader.query('select 1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(isConnectionLost(err)).toBe(true);
      await busy;
    } finally {
      await reader.close();
    }
  }, 30_000);
});

describe('two services in one process', () => {
  const Gadget = defineEntity({
    name: 'Gadget',
    tableName: 'gadgets',
    properties: { id: p.integer().primary().autoincrement(), label: p.string() },
  });

  it("each ORM keeps to its own transaction context: work for one inside the other's transaction uses its own entity manager", async () => {
    const other = await openDatabase({
      url: withDatabaseName(base, dbName),
      schema: 'gadgets_svc',
      entities: [Gadget],
      migrations: [
        sqlMigration('0001_initial', [...messagingTablesSql('gadgets_svc'), `create table "gadgets_svc"."gadgets" ("id" serial primary key, "label" varchar(255) not null)`]),
      ],
    });
    try {
      await other.migrate();
      await other.em().execute(`insert into "gadgets_svc"."gadgets" ("label") values ('dial')`);
      // As an event delivered in-process while the publisher's transaction is open (npm start's event bus).
      const found = await db.em().transactional(async () => {
        const em = other.em();
        return em.findOne(Gadget, { label: 'dial' });
      });
      expect(found?.label).toBe('dial');
    } finally {
      await other.close();
    }
  });
});
