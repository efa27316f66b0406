import { defineService } from '@storefront/service-kit';
import { fulfillment } from '@storefront/proto';
import { FulfillmentConfigSchema } from './config';
import { createFulfillmentDomain } from './domain';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';
import { quoteHandlers } from './grpc/quote.handlers';
import { regionHandlers } from './grpc/region.handlers';
import { shippingHandlers } from './grpc/shipping.handlers';
import { taxHandlers } from './grpc/tax.handlers';

/** Shipping zones and methods, tax rates, the region table and the shipping/tax quote engine. */
export const fulfillmentService = defineService({
  name: 'fulfillment',
  config: FulfillmentConfigSchema,
  entities,
  migrations,
  setup(ctx) {
    const domain = createFulfillmentDomain({ db: ctx.db, config: ctx.config });
    ctx.addGrpcService(fulfillment.TaxServiceService, taxHandlers(domain));
    ctx.addGrpcService(fulfillment.ShippingServiceService, shippingHandlers(domain));
    ctx.addGrpcService(fulfillment.QuoteServiceService, quoteHandlers(domain));
    ctx.addGrpcService(fulfillment.RegionServiceService, regionHandlers());
  },
});
