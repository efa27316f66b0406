import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CatalogEvents } from '@storefront/domain-events/catalog';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { catalog } from '@storefront/proto/catalog';
import { silentLogger, waitFor } from '@storefront/testing';
import {
  createSimpleProduct,
  customer,
  failure,
  guest,
  manager,
  onetimePrice,
  startCatalog,
  variationInput,
  type CatalogClients,
} from './support';

let c: CatalogClients;
let listener: EventTransport;
const lowStock: catalog.StockLow[] = [];

const adjust = (req: Partial<catalog.AdjustStockRequest>, caller = manager) =>
  c.stock.adjustStock(catalog.AdjustStockRequest.fromPartial({ action: 'add', quantity: 1, ...req }), caller);
const movements = (req: Partial<catalog.ListStockMovementsRequest>) =>
  c.stock.listStockMovements(catalog.ListStockMovementsRequest.fromPartial(req), manager);

beforeAll(async () => {
  c = await startCatalog({ env: { LOW_STOCK_THRESHOLD: '3' } });
  const env = c.service.env;
  listener = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM!,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX!,
    name: 'stock-listener',
    logger: silentLogger(),
  });
  await listener.consume('stock_listener', listener.subjectFor(CatalogEvents.stockLow.subject), async (m) => {
    lowStock.push(CatalogEvents.stockLow.codec.decode(m.data));
  });
});

afterAll(async () => {
  await listener.close();
  await c.stop();
});

describe('stock adjustments', () => {
  it('adds, removes and sets with a movement each, recomputing the status', async () => {
    const product = await createSimpleProduct(c, { title: 'Lantern', stock: 10 });
    const added = await adjust({ productId: product.id, action: 'add', quantity: 5, note: 'delivery' });
    expect(added.level).toMatchObject({ stockQuantity: 15, stockStatus: 'instock', manageStock: true });
    expect(added.movement).toMatchObject({
      quantityBefore: 10,
      quantityAfter: 15,
      delta: 5,
      reason: 'manual',
      note: 'delivery',
      userId: manager.userId,
    });
    const removed = await adjust({ productId: product.id, action: 'remove', quantity: 15, reason: 'damaged' });
    expect(removed.level).toMatchObject({ stockQuantity: 0, stockStatus: 'outofstock' });
    expect((await c.products.getProduct({ id: product.id, context: 'view', ifNoneMatch: '' }, guest)).product!.stockStatus).toBe(
      'outofstock',
    );
    const set = await adjust({ productId: product.id, action: 'set', quantity: 7 });
    expect(set.movement).toMatchObject({ quantityBefore: 0, quantityAfter: 7, delta: 7 });
    const history = await movements({ productId: product.id });
    expect(history.movements.map((m) => m.reason)).toEqual(['manual', 'damaged', 'manual', 'initial']);
    expect(history.movements.reduce((sum, m) => sum + m.delta, 0)).toBe(7);
  });

  it('refuses to remove below zero unless backorders are allowed', async () => {
    const strict = await createSimpleProduct(c, { title: 'Strict', stock: 2 });
    const err = await failure(adjust({ productId: strict.id, action: 'remove', quantity: 3 }));
    expect(err).toEqual(['shop_stock_insufficient', 422]);
    const lenient = await createSimpleProduct(c, { title: 'Lenient', stock: 2, backordersAllowed: true });
    const res = await adjust({ productId: lenient.id, action: 'remove', quantity: 3 });
    expect(res.level).toMatchObject({ stockQuantity: -1, stockStatus: 'onbackorder' });
  });

  it('adjusts variations of variable products by variation id', async () => {
    const { product } = await c.products.createProduct(
      {
        fields: catalog.ProductFields.fromPartial({
          title: 'Sock',
          status: 'publish',
          productType: 'variable',
          manageStock: true,
          prices: { items: [onetimePrice('5.00')] },
          variations: {
            items: [
              variationInput({ size: 'S' }, { stockQuantity: 1 }),
              variationInput({ size: 'L' }, { stockQuantity: 2 }),
            ],
          },
        }),
      },
      manager,
    );
    const [small, large] = product!.variations;
    const res = await adjust({ productId: product!.id, variationId: large.id, action: 'add', quantity: 3 });
    expect(res.level).toMatchObject({ variationId: large.id, stockQuantity: 5 });
    expect((await movements({ productId: product!.id, variationId: large.id })).total).toBe(2);
    expect((await movements({ productId: product!.id, variationId: small.id })).total).toBe(1);
    expect(await failure(adjust({ productId: product!.id, variationId: 0 }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(adjust({ productId: product!.id, variationId: 999999 }))).toEqual([
      'shop_variation_invalid_id',
      404,
    ]);
    const other = await createSimpleProduct(c, { title: 'Plain', stock: 1 });
    expect(await failure(adjust({ productId: other.id, variationId: small.id }))).toEqual([
      'shop_variation_invalid_id',
      404,
    ]);
  });

  it('rejects bad requests with 4xx', async () => {
    const product = await createSimpleProduct(c, { title: 'Checked', stock: 1 });
    const unmanaged = await createSimpleProduct(c, { title: 'Unmanaged' });
    expect(await failure(adjust({ productId: product.id, quantity: -1 }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(adjust({ productId: product.id, action: 'steal' }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(adjust({ productId: product.id, reason: 'x'.repeat(41) }))).toEqual([
      'rest_invalid_param',
      400,
    ]);
    expect(await failure(adjust({ productId: 987654 }))).toEqual(['rest_post_invalid_id', 404]);
    expect(await failure(adjust({ productId: 2 ** 40 }))).toEqual(['rest_post_invalid_id', 404]);
    expect(await failure(adjust({ productId: unmanaged.id }))).toEqual(['shop_stock_not_managed', 422]);
    expect(await failure(adjust({ productId: product.id, action: 'add', quantity: 2 ** 40 }))).toEqual([
      'rest_invalid_param',
      400,
    ]);
    expect(await failure(adjust({ productId: product.id }, guest))).toEqual(['rest_forbidden', 401]);
    expect(await failure(adjust({ productId: product.id }, customer))).toEqual(['rest_forbidden', 403]);
    expect(
      await failure(
        c.stock.listStockMovements(catalog.ListStockMovementsRequest.fromPartial({ productId: product.id }), customer),
      ),
    ).toEqual(['rest_forbidden', 403]);
  });

  it('pages movements: per_page 1..100, default 25, newest first', async () => {
    const product = await createSimpleProduct(c, { title: 'Busy', stock: 0 });
    for (let i = 0; i < 30; i++) await adjust({ productId: product.id, action: 'add', quantity: 1 });
    const first = await movements({ productId: product.id });
    expect([first.movements.length, first.total, first.totalPages]).toEqual([25, 30, 2]);
    expect(first.movements[0].quantityAfter).toBe(30);
    const second = await movements({ productId: product.id, page: 2 });
    expect(second.movements.length).toBe(5);
    expect(await failure(movements({ productId: product.id, perPage: 101 }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(movements({ productId: product.id, perPage: 0 }))).toEqual(['rest_invalid_param', 400]);
  });

  it('publishes catalog.stock_low once when a level crosses the threshold downward', async () => {
    const product = await createSimpleProduct(c, { title: 'Candle', sku: 'CANDLE-1', stock: 6 });
    await adjust({ productId: product.id, action: 'remove', quantity: 2 });
    await adjust({ productId: product.id, action: 'remove', quantity: 1 });
    await adjust({ productId: product.id, action: 'remove', quantity: 1 });
    await waitFor(() => lowStock.some((e) => e.productId === product.id));
    // A later product's stock_low arriving means any second one for the candle would have
    // (the relay publishes in commit order, the listener takes them in stream order).
    const marker = await createSimpleProduct(c, { title: 'Marker', sku: 'MARKER-1', stock: 4 });
    await adjust({ productId: marker.id, action: 'remove', quantity: 1 });
    await waitFor(() => lowStock.some((e) => e.productId === marker.id), 20_000);
    const events = lowStock.filter((e) => e.productId === product.id);
    expect(events).toEqual([
      { productId: product.id, variationId: 0, sku: 'CANDLE-1', name: 'Candle', stockQuantity: 3, threshold: 3 },
    ]);
  });

  it('reports availability without changing anything', async () => {
    const product = await createSimpleProduct(c, { title: 'Available', stock: 3 });
    const unmanaged = await createSimpleProduct(c, { title: 'Always' });
    const res = await c.stock.checkAvailability(
      {
        lines: [
          { productId: product.id, variationId: 0, quantity: 2 },
          { productId: product.id, variationId: 0, quantity: 2 },
          { productId: unmanaged.id, variationId: 0, quantity: 50 },
        ],
      },
      guest,
    );
    expect(res.lines.map((l) => [l.requested, l.available, l.sufficient])).toEqual([
      [2, 3, false],
      [2, 3, false],
      [50, undefined, true],
    ]);
    expect(res.allSufficient).toBe(false);
  });
});
