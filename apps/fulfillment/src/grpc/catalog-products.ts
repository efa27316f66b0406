import { DomainError } from '@storefront/errors';
import { bindClient, type CallerContext, type Channel } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import { catalogUnavailable } from '../domain/downloads/errors';
import type { DownloadableProduct, ProductDirectory } from '../domain/downloads/types';

// The service's own identity when it reads products (any status: a grant outlives publishing).
const SERVICE_CALLER: CallerContext = {
  userId: 0,
  login: '',
  roles: [],
  capabilities: [
    'manage_options',
    'read_shop_product',
    'read_private_shop_products',
    'edit_shop_product',
    'edit_shop_products',
    'edit_others_shop_products',
  ],
  requestId: 'fulfillment',
};

/** Product download data, asked of the catalog service over gRPC. */
export function catalogProducts(channel: Channel | undefined): ProductDirectory {
  const client = channel && bindClient(channel, catalog.ProductServiceService);
  return {
    async lookup(ids) {
      if (!client) throw catalogUnavailable();
      const out = new Map<number, DownloadableProduct>();
      for (const id of ids) {
        let product: catalog.Product | undefined;
        try {
          product = (await client.getProduct({ id, context: 'edit', ifNoneMatch: '' }, SERVICE_CALLER)).product;
        } catch (err) {
          if (err instanceof DomainError && (err.status === 404 || err.status === 403 || err.status === 401)) continue;
          throw err;
        }
        if (!product) continue;
        out.set(id, {
          productId: Number(product.id),
          name: product.title,
          productType: product.productType,
          downloadable: product.downloadable,
          downloads: product.downloads.map((d) => ({ id: d.id, name: d.name, file: d.file })),
          downloadLimit: product.downloadLimit,
          downloadExpiry: product.downloadExpiry,
          bundleProductIds: product.bundleProductIds.map(Number),
        });
      }
      return out;
    },
  };
}
