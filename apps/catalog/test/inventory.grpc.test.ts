import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { isValidEan13 } from '../src/domain/inventory/ean13';
import {
  createSimpleProduct,
  customer,
  failure,
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

const generate = (req: Partial<catalog.GenerateCodeRequest>, caller = manager) =>
  c.inventory.generateCode(catalog.GenerateCodeRequest.fromPartial(req), caller).then((r) => r.value);

describe('inventory codes', () => {
  it('generates SKUs from the category and name, continuing the series', async () => {
    const category = (
      await c.terms.createTerm({ taxonomy: 'shop_product_category', fields: { name: 'Clothing' } }, manager)
    ).term!;
    expect(await generate({ type: 'sku', name: 'Organic Cotton T-Shirt', categoryId: category.id })).toBe(
      'CLO-ORGACOTT-0001',
    );
    await createSimpleProduct(c, { title: 'Shirt', sku: 'CLO-ORGACOTT-0001' });
    await createSimpleProduct(c, { title: 'Shirt 7', sku: 'clo-orgacott-0007' });
    expect(await generate({ type: 'sku', name: 'Organic Cotton T-Shirt', categoryId: category.id })).toBe(
      'CLO-ORGACOTT-0008',
    );
    expect(await generate({ type: 'sku', name: 'Crème brûlée' })).toBe('CREMBRUL-0001');
    expect(await generate({ type: 'sku', name: '' })).toBe('ITEM-0001');
    expect(await failure(generate({ type: 'sku', name: 'x', categoryId: 999999 }))).toEqual(['rest_term_invalid', 404]);
  });

  it('generates valid, unused in-store EAN-13 barcodes', async () => {
    const codes = await Promise.all(Array.from({ length: 5 }, () => generate({ type: 'barcode' })));
    for (const code of codes) expect([isValidEan13(code), code[0]]).toEqual([true, '2']);
  });

  it('refuses unknown types and callers without edit_shop_products', async () => {
    expect(await failure(generate({ type: 'qr' }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(generate({ type: 'sku' }, customer))).toEqual(['rest_forbidden', 403]);
    expect(await failure(c.inventory.resolveCodes({ codes: ['X'] }, customer))).toEqual(['rest_forbidden', 403]);
  });

  it('resolves SKUs and barcodes of products and variations, listing unknown codes', async () => {
    const mug = await createSimpleProduct(c, { title: 'Mug', sku: 'MUG-1', barcode: '2001234567893', amount: '8.50' });
    const { product } = await c.products.createProduct(
      {
        fields: catalog.ProductFields.fromPartial({
          title: 'Hat',
          status: 'publish',
          productType: 'variable',
          prices: { items: [onetimePrice('12.00')] },
          variations: {
            items: [variationInput({ size: 'S' }, { sku: 'HAT-S', barcode: '2009876543217', amount: '13.00' })],
          },
        }),
      },
      manager,
    );
    const res = await c.inventory.resolveCodes({ codes: ['mug-1', '2009876543217', 'NOPE', "' or 1=1 --"] }, manager);
    expect(res.items).toEqual([
      expect.objectContaining({
        code: 'mug-1',
        matchedBy: 'sku',
        productId: mug.id,
        variationId: 0,
        name: 'Mug',
        price: '8.50',
        currency: 'USD',
        priceId: mug.prices[0].id,
      }),
      expect.objectContaining({
        code: '2009876543217',
        matchedBy: 'barcode',
        productId: product!.id,
        variationId: product!.variations[0].id,
        name: 'Hat - S',
        price: '13.00',
        sku: 'HAT-S',
      }),
    ]);
    expect(res.unknown).toEqual(['NOPE', "' or 1=1 --"]);
    expect(await failure(c.inventory.resolveCodes({ codes: [] }, manager))).toEqual(['rest_invalid_param', 400]);
    expect(
      await failure(c.inventory.resolveCodes({ codes: Array.from({ length: 101 }, (_, i) => `C${i}`) }, manager)),
    ).toEqual(['rest_invalid_param', 400]);
  });
});
