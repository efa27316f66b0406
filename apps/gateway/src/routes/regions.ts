import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError, notFound } from '@storefront/errors';
import type { FulfillmentClients } from '../clients';
import type { RouteModule } from '../context';
import { statesResource, StatesSchema } from '../resources/region';
import { documented, errorResponses } from '../http/responses';

const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2 country code (case-insensitive).',
});
const StatesQuery = Type.Object({ country_code: CountryCode });
const StatesParams = Type.Object({ cc: CountryCode });

/**
 * The service rejects a code it does not know as a bad `country_code`
 * parameter. Here the code is already known to be two letters, so that can
 * only mean "no such country": a missing resource, 404.
 */
function isUnknownCountry(err: unknown): boolean {
  return DomainError.is(err) && err.status === 400 && Object.hasOwn((err.data.params ?? {}) as object, 'country_code');
}

async function statesOf(regions: FulfillmentClients['region'], code: string, request: FastifyRequest) {
  const countryCode = code.toUpperCase();
  try {
    return statesResource(await regions.getStates({ countryCode }, request.caller));
  } catch (err) {
    if (isUnknownCountry(err)) throw notFound('shop_country_invalid', `"${countryCode}" is not a known country code.`);
    throw err;
  }
}

/** The state field of a country's addresses: `GET /checkout/states` (public) and `GET /order/get_states/<cc>` (admin). */
export const regionRoutes: RouteModule = (app, ctx) => {
  const regions = ctx.clients.fulfillment?.region;
  if (!regions) return;

  app.get(
    '/checkout/states',
    {
      config: { access: 'public' },
      schema: {
        ...documented('fulfillment')('getCheckoutStates', 'Get the states of a country (checkout form)', { 200: StatesSchema, ...errorResponses(404) }),
        querystring: StatesQuery,
      },
    },
    (request) =>
    statesOf(regions, request.query.country_code, request),
  );

  // Part of the orders controller, hence manage_options.
  app.get(
    '/order/get_states/:cc',
    {
      config: { access: 'admin' },
      schema: { ...documented('fulfillment')('getCountryStates', 'Get the states of a country (order admin)', { 200: StatesSchema }), params: StatesParams },
    },
    (request) =>
    statesOf(regions, request.params.cc, request),
  );
};
