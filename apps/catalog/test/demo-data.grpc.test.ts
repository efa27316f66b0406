import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { loadConfig } from '@storefront/service-kit';
import { silentLogger } from '@storefront/testing';
import { CatalogConfigSchema } from '../src/config';
import { seedDemoCatalog } from '../src/domain/demo/demo-seed';
import { customersDirectory } from '../src/grpc/customers-directory';
import { customersStoreSettings } from '@storefront/service-kit/store-settings';
import { guest, manager, startCatalog, type CatalogClients } from './support';

let c: CatalogClients;

beforeAll(async () => {
  c = await startCatalog({ env: { SEED_DEMO_DATA: 'true' } });
});

afterAll(async () => {
  await c.stop();
});

describe('demo data (SEED_DEMO_DATA=true)', () => {
  it('seeds a small published catalog across categories and tags', async () => {
    const { products, total } = await c.products.listProducts(
      catalog.ListProductsRequest.fromPartial({ query: { perPage: 100 } }),
      guest,
    );
    expect(total).toBeGreaterThanOrEqual(10);
    const byType = (type: string) => products.filter((p) => p.productType === type);
    const variable = byType('variable')[0];
    expect(variable.variations.length).toBeGreaterThan(1);
    expect(variable.variations.every((v) => v.stockQuantity !== undefined)).toBe(true);
    expect(products.some((p) => p.downloadable && !p.shippingRequired && p.downloads.length)).toBe(true);
    expect(
      products.some((p) => p.prices.some((price) => price.type === 'subscription' && price.billingPeriod === 'month')),
    ).toBe(true);
    expect(byType('bundle')[0].bundleProductIds).toHaveLength(2);
    expect(products.filter((p) => p.manageStock).every((p) => p.stockStatus)).toBe(true);
    const categories = await c.terms.listTerms(
      catalog.ListTermsRequest.fromPartial({ taxonomy: 'shop_product_category', hideEmpty: true }),
      guest,
    );
    expect(categories.total).toBeGreaterThanOrEqual(3);
    const tags = await c.terms.listTerms(catalog.ListTermsRequest.fromPartial({ taxonomy: 'shop_product_tag' }), guest);
    expect(tags.total).toBeGreaterThanOrEqual(3);
  });

  it('does not seed a catalog that already has products', async () => {
    const config = loadConfig(CatalogConfigSchema, c.service.env);
    const deps = {
      db: c.service.db,
      config,
      customers: customersDirectory(undefined),
      store: customersStoreSettings(undefined, 1000, { logger: silentLogger(), name: 'catalog' }),
      logger: silentLogger(),
      now: () => new Date(),
    };
    const before = (
      await c.products.listProducts(catalog.ListProductsRequest.fromPartial({ query: { status: ['any'] } }), manager)
    ).total;
    expect(await seedDemoCatalog(deps)).toBe(false);
    expect(
      (await c.products.listProducts(catalog.ListProductsRequest.fromPartial({ query: { status: ['any'] } }), manager))
        .total,
    ).toBe(before);
  });
});
