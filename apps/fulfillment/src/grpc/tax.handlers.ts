import { fulfillment } from '@storefront/proto/fulfillment';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { FulfillmentDomain } from '../domain';
import { toProtoTaxRate } from './tax.mappers';

export function taxHandlers(domain: FulfillmentDomain): ServiceHandlers<typeof fulfillment.TaxServiceService> {
  return {
    async listTaxRates(req) {
      const { rates, total, totalPages } = await domain.taxRates.list({
        page: req.page,
        perPage: req.perPage,
        offset: req.offset,
        order: req.order,
        orderby: req.orderby,
      });
      return { taxRates: rates.map(toProtoTaxRate), total, totalPages };
    },
    async getTaxRate(req) {
      return { taxRate: toProtoTaxRate(await domain.taxRates.get(req.id)) };
    },
    async createTaxRate(req) {
      return { taxRate: toProtoTaxRate(await domain.taxRates.create(req)) };
    },
    async updateTaxRate(req) {
      const { id, ...changes } = req;
      return { taxRate: toProtoTaxRate(await domain.taxRates.update(id, changes)) };
    },
    async deleteTaxRate(req) {
      return { previous: toProtoTaxRate(await domain.taxRates.delete(req.id, req.force)) };
    },
  };
}
