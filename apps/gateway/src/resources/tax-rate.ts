import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { fulfillment } from '@storefront/proto/fulfillment';
import { resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';

/** JSON Schema of a tax rate as the REST API shows it (OPTIONS and OpenAPI). */
export const TaxRateSchema = Type.Object({
  id: Type.Integer({ readOnly: true }),
  country: Type.String({ description: 'ISO 3166-1 alpha-2 country code; "" for every country.' }),
  state: Type.String({ description: 'State code of the country; "" for every state.' }),
  postcode: Type.String({ description: 'The postcodes joined with ";" (see postcodes).' }),
  city: Type.String({ description: 'The cities joined with ";" (see cities).' }),
  postcodes: Type.Array(Type.String(), { description: 'Postcodes, wildcards ("12*") and numeric ranges ("10000...19999").' }),
  cities: Type.Array(Type.String()),
  rate: Type.String({ description: 'Percentage, decimal string with 4 places ("20.0000").' }),
  name: Type.String(),
  priority: Type.Integer({ description: 'Only the first matching rate of each priority applies.' }),
  compound: Type.Boolean({ description: 'Applied on top of the taxes before it.' }),
  shipping: Type.Boolean({ description: 'Also applied to shipping.' }),
  order: Type.Integer({ description: 'Position among rates of the same priority.' }),
  class: Type.String({ description: 'Tax class: standard, reduced-rate or zero-rate.' }),
  _links: LinksSchema,
}, { title: 'TaxRate' });

const TAXES = '/shop/v1/taxes';

/** The service keeps postcodes and cities as one ";"-joined string; REST shows both forms. */
const splitList = (joined: string) => (joined ? joined.split(';') : []);

export function taxRateResource(rate: fulfillment.TaxRate, request: FastifyRequest) {
  return {
    id: rate.id,
    country: rate.country,
    state: rate.state,
    postcode: rate.postcode,
    city: rate.city,
    postcodes: splitList(rate.postcode),
    cities: splitList(rate.city),
    rate: rate.rate,
    name: rate.name,
    priority: rate.priority,
    compound: rate.compound,
    shipping: rate.shipping,
    order: rate.order,
    class: rate.class,
    _links: resourceLinks(request, `${TAXES}/${rate.id}`, TAXES),
  };
}
