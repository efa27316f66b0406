import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { createSimpleProduct, guest, manager, onetimePrice, startCatalog, type CatalogClients } from './support';

// Conditional reads: the ETag must change whenever anything a product document
// shows changes, and a still-current ETag must answer "not modified".

let c: CatalogClients;
beforeAll(async () => {
  c = await startCatalog();
});
afterAll(() => c?.stop());

const get = (id: number, ifNoneMatch = '', caller = guest) =>
  c.products.getProduct({ id, context: 'view', ifNoneMatch }, caller);
const list = (ifNoneMatch = '', caller = guest) =>
  c.products.listProducts(catalog.ListProductsRequest.fromPartial({ query: { perPage: 5 }, ifNoneMatch }), caller);

describe('product ETags', () => {
  it('answer not modified while nothing changed, and carry no product then', async () => {
    const product = await createSimpleProduct(c, { stock: 5 });
    const first = await get(product.id);
    expect(first.notModified).toBe(false);
    expect(first.product?.id).toBe(product.id);
    const again = await get(product.id, first.etag);
    expect(again).toMatchObject({ notModified: true, etag: first.etag });
    expect(again.product).toBeUndefined();
    expect((await get(product.id, 'stale-etag')).notModified).toBe(false);
  });

  it('change with the product, its prices, its stock and its terms', async () => {
    const product = await createSimpleProduct(c, { stock: 5 });
    const etags = [(await get(product.id)).etag];
    const changed = async () => {
      const res = await get(product.id, etags[etags.length - 1]);
      expect(res.notModified).toBe(false);
      etags.push(res.etag);
    };
    await c.products.updateProduct({ id: product.id, fields: catalog.ProductFields.fromPartial({ title: 'Renamed' }) }, manager);
    await changed();
    await c.products.updateProduct(
      { id: product.id, fields: catalog.ProductFields.fromPartial({ prices: { items: [onetimePrice('12.00')] } }) },
      manager,
    );
    await changed();
    await c.stock.adjustStock(
      catalog.AdjustStockRequest.fromPartial({ productId: product.id, action: 'remove', quantity: 1 }),
      manager,
    );
    await changed();
    const { term } = await c.terms.createTerm({ taxonomy: 'shop_product_category', fields: { name: 'Lamps' } }, manager);
    await c.products.updateProduct(
      { id: product.id, fields: catalog.ProductFields.fromPartial({ shopProductCategory: { ids: [term!.id] } }) },
      manager,
    );
    await changed();
    await c.terms.deleteTerm({ taxonomy: 'shop_product_category', id: term!.id, force: true }, manager);
    await changed();
    expect(new Set(etags).size).toBe(etags.length);
  });

  it('differ for callers who see hidden stock', async () => {
    const product = await createSimpleProduct(c, { stock: 3, hideStock: true });
    const asGuest = await get(product.id);
    const asManager = await get(product.id, asGuest.etag, manager);
    expect(asManager.notModified).toBe(false);
    expect(asGuest.product?.stockQuantity).toBeUndefined();
    expect(asManager.product?.stockQuantity).toBe(3);
  });

  it('cover list pages: a new product changes the page', async () => {
    const before = await list();
    expect((await list(before.etag)).notModified).toBe(true);
    await createSimpleProduct(c, { title: 'Newest' });
    const after = await list(before.etag);
    expect(after.notModified).toBe(false);
    expect(after.products[0].title).toBe('Newest');
  });
});

describe('queries per list request', () => {
  it('are bounded whatever the page size: 1 without an ETag, 2 on a stale one, 1 when not modified', async () => {
    for (let i = 0; i < 20; i++) await createSimpleProduct(c, { title: `Bulk ${i}`, stock: 2 });
    const reader = c.service.db.reader;
    const original = reader.query.bind(reader);
    let statements = 0;
    reader.query = (async (sql: string, params?: readonly unknown[]) => {
      statements++;
      return original(sql, params);
    }) as typeof reader.query;
    try {
      for (const perPage of [1, 5, 20]) {
        statements = 0;
        const res = await c.products.listProducts(catalog.ListProductsRequest.fromPartial({ query: { perPage } }), guest);
        expect(res.products.length).toBe(perPage);
        expect(statements).toBe(1); // keys with documents and the count
        statements = 0;
        const again = await c.products.listProducts(
          catalog.ListProductsRequest.fromPartial({ query: { perPage }, ifNoneMatch: res.etag }),
          guest,
        );
        expect(again.notModified).toBe(true);
        expect(statements).toBe(1); // keys and the count
        statements = 0;
        const stale = await c.products.listProducts(
          catalog.ListProductsRequest.fromPartial({ query: { perPage }, ifNoneMatch: 'stale' }),
          guest,
        );
        expect(stale.products.map((p) => p.id)).toEqual(res.products.map((p) => p.id));
        expect(statements).toBe(2); // keys and the count, then the documents
      }
    } finally {
      reader.query = original;
    }
  });
});
