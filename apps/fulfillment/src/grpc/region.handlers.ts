import { fulfillment } from '@storefront/proto/fulfillment';
import type { ServiceHandlers } from '@storefront/service-kit';
import { stateFieldOf } from '../domain/regions';

export function regionHandlers(): ServiceHandlers<typeof fulfillment.RegionServiceService> {
  return {
    async getStates(req) {
      const country = stateFieldOf(req.countryCode);
      return {
        countryCode: country.code,
        states: country.states.map((s) => ({ code: s.code, name: s.name })),
        label: country.stateLabel,
        required: country.stateRequired,
      };
    },
  };
}
