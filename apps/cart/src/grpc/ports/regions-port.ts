import { DomainError } from '@storefront/errors';
import { bindClient, type Channel } from '@storefront/grpc-client';
import { fulfillment } from '@storefront/proto/fulfillment';
import type { RegionsPort, StateField } from '../../domain/ports';
import { SERVICE_CALLER } from './service-caller';

/**
 * Countries' state fields from fulfillment's region table. The table is
 * compiled into fulfillment (it changes with a release, not at run time), so
 * each known country is read once per process; an unknown one is not kept.
 * Without fulfillment configured, no state is checked.
 */
export function regionsPort(channel: Channel | undefined): RegionsPort {
  if (!channel) return { stateField: async () => null };
  const regions = bindClient(channel, fulfillment.RegionServiceService);
  const known = new Map<string, Promise<StateField | null>>();
  return {
    stateField(country) {
      const code = country.trim().toUpperCase();
      let field = known.get(code);
      if (!field) {
        field = regions.getStates({ countryCode: code }, SERVICE_CALLER).then(
          (r) => ({ label: r.label, required: r.required, states: r.states.map((s) => ({ code: s.code, name: s.name })) }),
          (err: unknown) => {
            known.delete(code);
            if (DomainError.is(err) && err.status === 400) return null;
            throw err;
          },
        );
        known.set(code, field);
      }
      return field;
    },
  };
}
