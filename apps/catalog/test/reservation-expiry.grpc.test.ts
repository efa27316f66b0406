import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { waitFor } from '@storefront/testing';
import { createSimpleProduct, customer, failure, guest, manager, startCatalog, type CatalogClients } from './support';

// Issue 8 item 8: a reservation past expires_at is expired wherever it is read,
// whether or not the sweeper has run (it is off here).

let c: CatalogClients;

beforeAll(async () => {
  c = await startCatalog({ env: { RESERVATION_SWEEP_SECONDS: '0' } });
});

afterAll(async () => {
  await c.stop();
});

const line = (productId: number, quantity = 1) => ({ productId, variationId: 0, quantity });
const reserve = (reservationId: string, lines: catalog.StockLine[], ttlSeconds = 1) =>
  c.stock.reserveStock({ reservationId, lines, ttlSeconds }, customer);
const levelOf = async (productId: number) =>
  (await c.products.getProduct({ id: productId, context: 'edit', ifNoneMatch: '' }, manager)).product!.stockQuantity;
const reasons = async (productId: number) =>
  (
    await c.stock.listStockMovements(catalog.ListStockMovementsRequest.fromPartial({ productId, perPage: 100 }), manager)
  ).movements.map((m) => [m.reason, m.delta]);
/** Waits (polling the replay) until the reservation reads as expired. */
const expired = (id: string, lines: catalog.StockLine[]) =>
  waitFor(async () => (await reserve(id, lines)).reservation!.status === 'expired', 10_000, 100);

describe('reservations past expires_at, before any sweep', () => {
  it('a replayed reserve reports expired; commit refuses; commit for a paid order keeps the held units', async () => {
    const product = await createSimpleProduct(c, { title: 'Expiring', stock: 3 });
    const first = await reserve('exp-1', [line(product.id, 2)]);
    expect(first.reservation!.status).toBe('active');
    await expired('exp-1', [line(product.id, 2)]);
    expect(await failure(c.stock.commitReservation({ reservationId: 'exp-1' }, guest))).toEqual([
      'shop_reservation_not_active',
      409,
    ]);
    const paid = await c.stock.commitReservation({ reservationId: 'exp-1', orderPaid: true }, guest);
    expect(paid.reservation!.status).toBe('committed');
    // The units were still held: committing takes nothing more.
    expect(await levelOf(product.id)).toBe(1);
    expect(await reasons(product.id)).toEqual([
      ['reserved', -2],
      ['initial', 3],
    ]);
  });

  it('releasing an expired reservation gives the units back as expired', async () => {
    const product = await createSimpleProduct(c, { title: 'Expiring too', stock: 3 });
    await reserve('exp-2', [line(product.id, 3)]);
    await expired('exp-2', [line(product.id, 3)]);
    const released = await c.stock.releaseReservation({ reservationId: 'exp-2', reason: '' }, customer);
    expect(released.reservation!.status).toBe('expired');
    expect(await levelOf(product.id)).toBe(3);
    expect((await reasons(product.id))[0]).toEqual(['expired', 3]);
  });

  it('a paid order commits a reservation the sweep already gave back by taking the units again', async () => {
    const product = await createSimpleProduct(c, { title: 'Swept', stock: 2 });
    await reserve('exp-3', [line(product.id, 2)]);
    await expired('exp-3', [line(product.id, 2)]);
    await c.stock.releaseReservation({ reservationId: 'exp-3', reason: '' }, customer);
    expect(await levelOf(product.id)).toBe(2);
    const paid = await c.stock.commitReservation({ reservationId: 'exp-3', orderPaid: true }, guest);
    expect(paid.reservation!.status).toBe('committed');
    expect(await levelOf(product.id)).toBe(0);
    expect((await reasons(product.id))[0]).toEqual(['order_paid', -2]);
  });
});
