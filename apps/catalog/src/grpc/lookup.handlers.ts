import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';
import { toProtoPurchasableResult } from './lookup.mappers';
import { toProtoVariation } from './product.mappers';

export function lookupHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.CatalogLookupServiceService> {
  const { lookup } = domain;
  return {
    async getPurchasables(req) {
      const results = await lookup.purchasables(req.lines);
      return { results: results.map((result, i) => toProtoPurchasableResult(req.lines[i], result)) };
    },
    async getVariations(req, caller) {
      const variations = await lookup.variations(caller, req.productId);
      return { productId: req.productId, variations: variations.map(toProtoVariation) };
    },
  };
}
