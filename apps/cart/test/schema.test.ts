import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { statementsSent } from '@storefront/testing';
import { findCheckoutByOrder, recordIfNoActionCheckout } from '../src/persistence/checkouts.repository';
import { cartService } from '../src/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService(cartService);
}, 60_000);
afterAll(async () => {
  await service?.stop();
}, 60_000);

describe('cart schema', () => {
  it('has no drift between entities and migrations', async () => {
    const diff = await service.db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});

describe("an order's placement", () => {
  it('is found through an index, not by reading every checkout (each order_paid asks)', async () => {
    const sent = await statementsSent(/kind = 'place'|status = 'action'/, async () => {
      await recordIfNoActionCheckout(service.db.reader, 1, { consumer: 'schema-test', eventId: randomUUID() });
      await findCheckoutByOrder(service.db.orm.em.fork(), 1);
    });
    expect(sent).toHaveLength(2);
    const db = new pg.Client({ connectionString: service.env.DATABASE_URL });
    await db.connect();
    try {
      // An empty table is read sequentially whatever the indexes: forbid that to see which index applies.
      await db.query('set enable_seqscan = off');
      for (const { text, values } of sent) {
        const plan = JSON.stringify((await db.query(`explain (format json) ${text}`, values)).rows);
        expect(plan).toMatch(/checkouts_(place|action)_order_idx/);
      }
    } finally {
      await db.end();
    }
  });
});
