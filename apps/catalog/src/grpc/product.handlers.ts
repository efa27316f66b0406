import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';
import { fromProductFields, toProtoProduct } from './product.mappers';

export function productHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.ProductServiceService> {
  const { products } = domain;
  return {
    async listProducts(req, caller) {
      const result = await products.list(caller, req, req.ifNoneMatch);
      return {
        products: result.value.map(toProtoProduct),
        total: result.total,
        totalPages: result.totalPages,
        etag: result.etag,
        notModified: result.notModified,
      };
    },
    async getProduct(req, caller) {
      const result = await products.get(caller, req.id, req.context, req.ifNoneMatch);
      return {
        product: result.value && toProtoProduct(result.value),
        etag: result.etag,
        notModified: result.notModified,
      };
    },
    async createProduct(req, caller) {
      return { product: toProtoProduct(await products.create(caller, fromProductFields(req.fields))) };
    },
    async updateProduct(req, caller) {
      return { product: toProtoProduct(await products.update(caller, req.id, fromProductFields(req.fields))) };
    },
    async deleteProduct(req, caller) {
      const { product, deleted } = await products.delete(caller, req.id, req.force);
      return { product: toProtoProduct(product), deleted };
    },
  };
}
