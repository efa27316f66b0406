import type { fulfillment } from '@storefront/proto/fulfillment';
import type { TaxRate } from '../persistence/entities';

export function toProtoTaxRate(rate: TaxRate): fulfillment.TaxRate {
  return {
    id: rate.id,
    country: rate.country,
    state: rate.state,
    postcode: rate.postcode,
    city: rate.city,
    rate: rate.rate,
    name: rate.name,
    priority: rate.priority,
    compound: rate.compound,
    shipping: rate.shipping,
    order: rate.order,
    class: rate.class,
  };
}
