import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';

export function inventoryHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.InventoryServiceService> {
  const { inventory } = domain;
  return {
    async generateCode(req, caller) {
      return { value: await inventory.generateCode(caller, req) };
    },
    async resolveCodes(req, caller) {
      return inventory.resolveCodes(caller, req.codes);
    },
  };
}
