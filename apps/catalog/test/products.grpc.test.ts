import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import {
  contributor,
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

beforeAll(async () => {
  c = await startCatalog();
});

afterAll(async () => {
  await c.stop();
});

const fields = (f: Partial<catalog.ProductFields>) => catalog.ProductFields.fromPartial(f);
const query = (q: Partial<catalog.CollectionQuery>) => catalog.ListProductsRequest.fromPartial({ query: q });

describe('product writes', () => {
  it('creates a product with prices, variations, terms, meta and stock', async () => {
    const category = (
      await c.terms.createTerm({ taxonomy: 'shop_product_category', fields: { name: 'Clothing' } }, manager)
    ).term!;
    const tag = (await c.terms.createTerm({ taxonomy: 'shop_product_tag', fields: { name: 'New' } }, manager)).term!;
    const { product } = await c.products.createProduct(
      {
        fields: fields({
          title: 'Classic T-Shirt',
          content: 'Soft cotton.',
          status: 'publish',
          productType: 'variable',
          manageStock: true,
          meta: { origin: 'Portugal', care: { wash: 30 } },
          shopProductCategory: { ids: [category.id] },
          shopProductTag: { ids: [tag.id] },
          prices: { items: [onetimePrice('19.99', { compareAtAmount: '24.50' })] },
          variations: {
            items: [
              variationInput({ color: 'Red', size: 'M' }, { sku: 'TS-RED-M', stockQuantity: 5 }),
              variationInput({ color: 'Blue', size: 'L' }, { sku: 'TS-BLUE-L', amount: '21.99', stockQuantity: 0 }),
            ],
          },
          images: { values: ['https://img.example.test/tshirt.png'] },
        }),
      },
      manager,
    );
    expect(product).toMatchObject({
      title: 'Classic T-Shirt',
      slug: 'classic-t-shirt',
      status: 'publish',
      author: manager.userId,
      productType: 'variable',
      meta: { origin: 'Portugal', care: { wash: 30 } },
      shopProductCategory: [category.id],
      shopProductTag: [tag.id],
      stockQuantity: 5,
      stockStatus: 'instock',
      images: ['https://img.example.test/tshirt.png'],
    });
    expect(product!.prices).toEqual([
      expect.objectContaining({ amount: '19.99', compareAtAmount: '24.50', currency: 'USD', type: 'onetime' }),
    ]);
    const [red, blue] = product!.variations;
    expect(red).toMatchObject({
      attributes: { color: 'Red', size: 'M' },
      priceId: product!.prices[0].id,
      unitAmount: '19.99',
      stockQuantity: 5,
      stockStatus: 'instock',
    });
    expect(blue).toMatchObject({ amount: '21.99', unitAmount: '21.99', stockQuantity: 0, stockStatus: 'outofstock' });
    const movements = await c.stock.listStockMovements(
      catalog.ListStockMovementsRequest.fromPartial({ productId: product!.id, variationId: red.id }),
      manager,
    );
    expect(movements.movements.map((m) => [m.reason, m.quantityBefore, m.quantityAfter])).toEqual([['initial', 0, 5]]);
  });

  it('updates only the fields sent, merges meta, replaces prices and keeps slugs unique', async () => {
    const first = await createSimpleProduct(c, { title: 'Mug', meta: { color: 'white', size: 'large' } });
    const second = await createSimpleProduct(c, { title: 'Mug' });
    expect([first.slug, second.slug]).toEqual(['mug', 'mug-2']);
    const { product } = await c.products.updateProduct(
      {
        id: first.id,
        fields: fields({
          excerpt: 'A mug.',
          meta: { color: 'black', size: null },
          prices: {
            items: [{ ...onetimePrice('12.00'), id: first.prices[0].id }, onetimePrice('99.00', { name: 'Gift box' })],
          },
        }),
      },
      manager,
    );
    expect(product).toMatchObject({ title: 'Mug', excerpt: 'A mug.', meta: { color: 'black' }, slug: 'mug' });
    expect(product!.prices.map((p) => [p.id === first.prices[0].id, p.amount, p.name])).toEqual([
      [true, '12.00', 'Standard'],
      [false, '99.00', 'Gift box'],
    ]);
  });

  it('gives concurrent creations with the same title distinct slugs', async () => {
    const created = await Promise.all(Array.from({ length: 6 }, () => createSimpleProduct(c, { title: 'Rush' })));
    expect(new Set(created.map((p) => p.slug)).size).toBe(6);
  });

  it('refuses bad values with 400 rest_invalid_param, never INTERNAL', async () => {
    const bad: Array<Partial<catalog.ProductFields>> = [
      { status: 'trash' },
      { productType: 'kit' },
      { prices: { items: [onetimePrice('-1')] } },
      { prices: { items: [onetimePrice('1.999')] } },
      { prices: { items: [onetimePrice('abc')] } },
      { prices: { items: [onetimePrice('10', { type: 'subscription', billingPeriod: 'fortnight' })] } },
      { author: 2 ** 40 },
      { stockQuantity: 5 },
      { manageStock: true, stockQuantity: -3 },
      { images: { values: ['javascript:alert(1)'] } },
      { shopProductCategory: { ids: [999999] } },
      { shopProductCategory: { ids: Array.from({ length: 101 }, (_, i) => i + 1) } },
      { variations: { items: [variationInput({ color: 'Red' })] } },
    ];
    for (const f of bad) {
      expect(await failure(c.products.createProduct({ fields: fields({ title: 'Bad', ...f }) }, manager))).toEqual([
        'rest_invalid_param',
        400,
      ]);
    }
  });

  it('rejects duplicated SKUs across products and variations', async () => {
    await createSimpleProduct(c, { title: 'Sku owner', sku: 'UNIQUE-1' });
    expect(await failure(createSimpleProduct(c, { title: 'Copycat', sku: 'unique-1' }))).toEqual([
      'shop_product_invalid_sku',
      400,
    ]);
  });

  it('applies the host platform write permissions', async () => {
    const draft = fields({ title: 'Draft' });
    expect(await failure(c.products.createProduct({ fields: draft }, guest))).toEqual(['rest_cannot_create', 401]);
    expect(await failure(c.products.createProduct({ fields: draft }, customer))).toEqual(['rest_cannot_create', 403]);
    expect(
      await failure(c.products.createProduct({ fields: fields({ title: 'x', status: 'publish' }) }, contributor)),
    ).toEqual(['rest_cannot_publish', 403]);
    const mine = (await c.products.createProduct({ fields: draft }, contributor)).product!;
    expect(mine.status).toBe('draft');
    expect(
      await failure(c.products.updateProduct({ id: mine.id, fields: fields({ status: 'publish' }) }, contributor)),
    ).toEqual(['rest_cannot_publish', 403]);
    expect(await failure(c.products.updateProduct({ id: mine.id, fields: draft }, customer))).toEqual([
      'rest_cannot_edit',
      403,
    ]);
    expect(await failure(c.products.deleteProduct({ id: mine.id, force: false }, contributor))).toEqual([
      'rest_cannot_delete',
      403,
    ]);
    expect(await failure(c.products.updateProduct({ id: 987654, fields: draft }, manager))).toEqual([
      'rest_post_invalid_id',
      404,
    ]);
  });

  it('trashes, refuses to trash twice, and deletes permanently returning the previous record', async () => {
    const product = await createSimpleProduct(c, { title: 'Short-lived' });
    const trashed = await c.products.deleteProduct({ id: product.id, force: false }, manager);
    expect([trashed.deleted, trashed.product!.status]).toEqual([false, 'trash']);
    expect(await failure(c.products.deleteProduct({ id: product.id, force: false }, manager))).toEqual([
      'rest_already_trashed',
      410,
    ]);
    const gone = await c.products.deleteProduct({ id: product.id, force: true }, manager);
    expect([gone.deleted, gone.product!.title]).toEqual([true, 'Short-lived']);
    expect(await failure(c.products.getProduct({ id: product.id, context: 'view', ifNoneMatch: '' }, manager))).toEqual([
      'rest_post_invalid_id',
      404,
    ]);
  });
});

describe('product reads', () => {
  let draftId: number;
  let privateId: number;

  beforeAll(async () => {
    draftId = (
      await c.products.createProduct({ fields: fields({ title: 'Secret draft', content: 'unreleased' }) }, manager)
    ).product!.id;
    privateId = (
      await c.products.createProduct({ fields: fields({ title: 'Private one', status: 'private' }) }, manager)
    ).product!.id;
  });

  it('shows drafts and private products only to those allowed', async () => {
    expect(await failure(c.products.getProduct({ id: draftId, context: 'view', ifNoneMatch: '' }, guest))).toEqual([
      'rest_forbidden',
      401,
    ]);
    expect(await failure(c.products.getProduct({ id: draftId, context: 'view', ifNoneMatch: '' }, customer))).toEqual([
      'rest_forbidden',
      403,
    ]);
    expect(await failure(c.products.getProduct({ id: privateId, context: 'view', ifNoneMatch: '' }, contributor))).toEqual([
      'rest_forbidden',
      403,
    ]);
    expect((await c.products.getProduct({ id: privateId, context: 'view', ifNoneMatch: '' }, manager)).product!.status).toBe('private');
    expect(await failure(c.products.getProduct({ id: draftId, context: 'edit', ifNoneMatch: '' }, customer))).toEqual([
      'rest_forbidden_context',
      403,
    ]);
    expect(await failure(c.products.getProduct({ id: -1, context: 'view', ifNoneMatch: '' }, guest))).toEqual([
      'rest_post_invalid_id',
      404,
    ]);
  });

  it('lists published products by default and other statuses only for editors', async () => {
    const pub = await c.products.listProducts(query({ perPage: 100 }), guest);
    expect(pub.products.every((p) => p.status === 'publish')).toBe(true);
    expect(pub.products.map((p) => p.id)).not.toContain(draftId);
    expect(await failure(c.products.listProducts(query({ status: ['draft'] }), guest))).toEqual([
      'rest_forbidden_status',
      401,
    ]);
    expect(await failure(c.products.listProducts(query({ status: ['any'] }), customer))).toEqual([
      'rest_forbidden_status',
      403,
    ]);
    expect(await failure(c.products.listProducts(query({ context: 'edit' }), customer))).toEqual([
      'rest_forbidden_context',
      403,
    ]);
    const drafts = await c.products.listProducts(query({ status: ['draft'], perPage: 100 }), manager);
    expect(drafts.products.map((p) => p.id)).toContain(draftId);
  });

  it('searches, filters, orders and paginates with totals', async () => {
    for (const title of ['Alpha lamp', 'Beta lamp', 'Gamma lamp'])
      await createSimpleProduct(c, { title, excerpt: 'lighting' });
    const page1 = await c.products.listProducts(
      query({ search: 'LAMP', orderby: 'title', order: 'asc', perPage: 2 }),
      guest,
    );
    expect([page1.total, page1.totalPages, page1.products.map((p) => p.title)]).toEqual([
      3,
      2,
      ['Alpha lamp', 'Beta lamp'],
    ]);
    const page2 = await c.products.listProducts(
      query({ search: 'lamp', orderby: 'title', order: 'asc', perPage: 2, page: 2 }),
      guest,
    );
    expect(page2.products.map((p) => p.title)).toEqual(['Gamma lamp']);
    expect(await failure(c.products.listProducts(query({ search: 'lamp', perPage: 2, page: 3 }), guest))).toEqual([
      'rest_post_invalid_page_number',
      400,
    ]);
    const bySlug = await c.products.listProducts(query({ slug: ['beta-lamp'] }), guest);
    expect(bySlug.products.map((p) => p.title)).toEqual(['Beta lamp']);
    const ids = page1.products.map((p) => p.id);
    const included = await c.products.listProducts(query({ include: [...ids].reverse(), orderby: 'include' }), guest);
    expect(included.products.map((p) => p.id)).toEqual([...ids].reverse());
    const excluded = await c.products.listProducts(query({ search: 'lamp', exclude: ids }), guest);
    expect(excluded.products.map((p) => p.title)).toEqual(['Gamma lamp']);
    const relevance = await c.products.listProducts(query({ search: 'lighting', orderby: 'relevance' }), guest);
    expect(relevance.total).toBe(3);
  });

  it('totals of a status-only list (kept by triggers in product_counts) match counting the rows, through creates, status changes, trash and deletes', async () => {
    // `exclude` of an id no product has keeps the same rows but takes the counting path.
    const counted = async (status: string[]) => (await c.products.listProducts(query({ status, exclude: [999_999_999] }), manager)).total;
    const kept = async (status: string[]) => (await c.products.listProducts(query({ status }), manager)).total;
    const check = async () => {
      for (const status of [['publish'], ['draft'], ['trash'], ['publish', 'draft', 'pending', 'private'], ['any']]) {
        expect([status, await kept(status)]).toEqual([status, await counted(status)]);
      }
    };
    await check();
    const before = await kept(['draft']);
    const drafts = await Promise.all([1, 2, 3].map((n) => createSimpleProduct(c, { title: `Counted ${n}`, status: 'draft' })));
    expect(await kept(['draft'])).toBe(before + 3);
    await check();
    await c.products.updateProduct({ id: drafts[0].id, fields: fields({ status: 'publish' }) }, manager);
    await c.products.updateProduct({ id: drafts[0].id, fields: fields({ title: 'Counted, renamed' }) }, manager);
    await c.products.deleteProduct({ id: drafts[1].id, force: false }, manager);
    await c.products.deleteProduct({ id: drafts[2].id, force: true }, manager);
    expect(await kept(['draft'])).toBe(before);
    await check();
  });

  it('treats SQL-looking and wildcard searches as plain text', async () => {
    for (const search of ["'; drop table catalog.products; --", '%', '_', '\\', "lamp' or '1'='1"]) {
      const res = await c.products.listProducts(query({ search }), guest);
      expect(res.total).toBe(0);
    }
    expect((await c.products.listProducts(query({ search: 'lamp' }), guest)).total).toBe(3);
  });

  it('filters by taxonomy terms', async () => {
    const cat = (await c.terms.createTerm({ taxonomy: 'shop_product_category', fields: { name: 'Lighting' } }, manager))
      .term!;
    const lamp = await createSimpleProduct(c, { title: 'Delta lamp', shopProductCategory: { ids: [cat.id] } });
    const inCat = await c.products.listProducts(
      catalog.ListProductsRequest.fromPartial({ shopProductCategory: [cat.id] }),
      guest,
    );
    expect(inCat.products.map((p) => p.id)).toEqual([lamp.id]);
    const outside = await c.products.listProducts(
      catalog.ListProductsRequest.fromPartial({ query: { search: 'lamp' }, shopProductCategoryExclude: [cat.id] }),
      guest,
    );
    expect(outside.products.map((p) => p.title).sort()).toEqual(['Alpha lamp', 'Beta lamp', 'Gamma lamp']);
  });

  it('rejects bad collection parameters with 400', async () => {
    const cases: Array<[Partial<catalog.CollectionQuery>, string]> = [
      [{ perPage: 0 }, 'rest_invalid_param'],
      [{ perPage: 101 }, 'rest_invalid_param'],
      [{ page: 0 }, 'rest_invalid_param'],
      [{ include: Array.from({ length: 101 }, (_, i) => i + 1) }, 'rest_invalid_param'],
      [{ exclude: [-5] }, 'rest_invalid_param'],
      [{ orderby: 'price; drop' }, 'rest_invalid_param'],
      [{ order: 'sideways' }, 'rest_invalid_param'],
      [{ status: ['archived'] }, 'rest_invalid_param'],
      [{ context: 'raw' }, 'rest_invalid_param'],
      [{ orderby: 'relevance' }, 'rest_no_search_term_defined'],
      [{ orderby: 'include' }, 'rest_orderby_include_missing_include'],
    ];
    for (const [q, code] of cases)
      expect(await failure(c.products.listProducts(query(q), manager))).toEqual([code, 400]);
  });

  it('lists a page with a fixed number of SQL queries, however many products it holds', async () => {
    const seen: string[] = [];
    const config = c.service.db.orm.config;
    const original = config.get('onQuery');
    // The service's background work (outbox relay polls, consumers, sweeps) shares the ORM: only the
    // list's own statements count, or a busy machine lands a poll in one window and not the other.
    const background = /"(outbox|inbox|parked_event|reservations)"|^\s*(select 1|listen|notify)\b/i;
    config.set('onQuery', (sql: string, params: readonly unknown[]) => {
      if (!background.test(sql)) seen.push(sql);
      return original(sql, params);
    });
    try {
      const count = async (perPage: number) => {
        seen.length = 0;
        await c.products.listProducts(query({ perPage, status: ['any'] }), manager);
        return seen.length;
      };
      expect(await count(1)).toBe(await count(20));
      expect(await count(20)).toBeLessThanOrEqual(6);
    } finally {
      config.set('onQuery', original);
    }
  });
});

describe('stock visibility', () => {
  it('hides stock quantities of hide_stock products from all but editors', async () => {
    const product = await createSimpleProduct(c, { title: 'Hidden stock', stock: 4, hideStock: true });
    const asGuest = (await c.products.getProduct({ id: product.id, context: 'view', ifNoneMatch: '' }, guest)).product!;
    expect([asGuest.stockQuantity, asGuest.stockStatus]).toEqual([undefined, 'instock']);
    const asManager = (await c.products.getProduct({ id: product.id, context: 'edit', ifNoneMatch: '' }, manager)).product!;
    expect(asManager.stockQuantity).toBe(4);
  });
});
