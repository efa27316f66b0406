import { fulfillment } from '@storefront/proto/fulfillment';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { FulfillmentDomain } from '../domain';
import { fromProtoQuoteRequest, toProtoQuote } from './quote.mappers';

export function quoteHandlers(domain: FulfillmentDomain): ServiceHandlers<typeof fulfillment.QuoteServiceService> {
  return {
    async quote(req) {
      return toProtoQuote(await domain.quoting.quote(fromProtoQuoteRequest(req)));
    },
  };
}
