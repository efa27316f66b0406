import type { FulfillmentDeps } from './deps';
import { Quoting } from './quote/quoting';
import { ShippingMethods } from './shipping/shipping-methods';
import { ShippingZones } from './shipping/shipping-zones';
import { TaxRates } from './tax-rates/tax-rates';

export type { FulfillmentDeps } from './deps';

/** The fulfillment domain, wired once per service instance. */
export function createFulfillmentDomain(deps: FulfillmentDeps) {
  return {
    deps,
    taxRates: new TaxRates(deps),
    zones: new ShippingZones(deps),
    methods: new ShippingMethods(deps),
    quoting: new Quoting(deps),
  };
}
export type FulfillmentDomain = ReturnType<typeof createFulfillmentDomain>;
