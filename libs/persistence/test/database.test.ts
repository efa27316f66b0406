import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import pg from 'pg';
import { openDatabase, sqlMigration, messagingTablesSql, type Database, withDatabaseName } from '../src';

const Widget = defineEntity({
  name: 'Widget',
  tableName: 'widgets',
  properties: { id: p.integer().primary().autoincrement(), name: p.string() },
});

const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `persistence_test_${process.pid}`;
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
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
