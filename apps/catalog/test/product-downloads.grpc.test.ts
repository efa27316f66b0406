import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { createSimpleProduct, failure, guest, manager, startCatalog, type CatalogClients } from './support';

let c: CatalogClients;

beforeAll(async () => {
  c = await startCatalog();
});

afterAll(async () => {
  await c.stop();
});

const update = (id: number, f: Partial<catalog.ProductFields>) =>
  c.products.updateProduct({ id, fields: catalog.ProductFields.fromPartial(f) }, manager);

describe('download terms and files', () => {
  it('defaults download_limit and download_expiry to -1 and stores what is written', async () => {
    const product = await createSimpleProduct(c, { title: 'eBook', downloadable: true });
    expect(product).toMatchObject({ downloadLimit: -1, downloadExpiry: -1 });
    const updated = (
      await update(product.id, {
        downloadLimit: 5,
        downloadExpiry: 30,
        downloads: { items: [{ id: '', name: 'Book', file: 'books/ebook v2.pdf' }] },
      })
    ).product!;
    expect(updated).toMatchObject({ downloadLimit: 5, downloadExpiry: 30 });
    expect(updated.downloads).toEqual([{ id: expect.any(String), name: 'Book', file: 'books/ebook v2.pdf' }]);
    const read = (await c.products.getProduct({ id: product.id, context: 'edit', ifNoneMatch: '' }, manager)).product!;
    expect(read).toMatchObject({ downloadLimit: 5, downloadExpiry: 30, downloads: updated.downloads });
    expect((await update(product.id, { downloadLimit: -1, downloadExpiry: 0 })).product).toMatchObject({
      downloadLimit: -1,
      downloadExpiry: 0,
    });
  });

  it('refuses out-of-range terms and files that are not relative paths (400 rest_invalid_param)', async () => {
    const product = await createSimpleProduct(c, { title: 'Guarded eBook', downloadable: true });
    for (const f of [{ downloadLimit: -2 }, { downloadExpiry: -5 }]) {
      expect(await failure(update(product.id, f))).toEqual(['rest_invalid_param', 400]);
    }
    for (const file of [
      '/etc/passwd',
      '../secret.pdf',
      'books/../../secret.pdf',
      'https://files.example.test/a.pdf',
      'file:///etc/passwd',
      'C:\\books\\a.pdf',
      'books\\a.pdf',
      'books//a.pdf',
      './a.pdf',
      '',
    ]) {
      const err = await failure(update(product.id, { downloads: { items: [{ id: '', name: 'x', file }] } }));
      expect([file, ...err]).toEqual([file, 'rest_invalid_param', 400]);
    }
  });

  it('GetPurchasables returns the files and the download terms', async () => {
    const product = await createSimpleProduct(c, {
      title: 'Course',
      downloadable: true,
      shippingRequired: false,
      downloadLimit: 3,
      downloadExpiry: 7,
      downloads: { items: [{ id: 'f1', name: 'Video', file: 'course/video.mp4' }] },
    });
    const { results } = await c.lookup.getPurchasables(
      { lines: [{ priceId: product.prices[0].id, productId: 0, variationId: 0 }] },
      guest,
    );
    const result = results[0].result;
    expect(result?.$case).toBe('purchasable');
    if (result?.$case !== 'purchasable') return;
    expect(result.value).toMatchObject({
      downloadable: true,
      downloadLimit: 3,
      downloadExpiry: 7,
      downloads: [{ id: 'f1', name: 'Video', file: 'course/video.mp4' }],
    });
  });
});
