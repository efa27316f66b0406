import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase, type Database } from '@storefront/persistence';
import { createTestDatabase, type TestDatabase } from '@storefront/testing';
import { entities } from '../src/persistence/entities';
import { migrations } from '../src/persistence/migrations';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase('catalog_schema');
  db = await openDatabase({ url: database.url, schema: 'catalog', entities, migrations });
  await db.migrate();
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('catalog schema', () => {
  it('has no drift between the entities and the hand-written migrations', async () => {
    const diff = await db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});
