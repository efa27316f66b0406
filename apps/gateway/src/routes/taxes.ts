import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { badRequest } from '@storefront/errors';
import type { fulfillment } from '@storefront/proto/fulfillment';
import type { FulfillmentClients } from '../clients';
import type { RouteModule } from '../context';
import { registerBatchRoute } from '../http/batch';
import { DeletedSchema, documented, errorResponses } from '../http/responses';
import { setPaginationHeaders } from '../http/pagination';
import { Force, IdParams, MAX_ID, Nullable, Page, PerPage } from '../http/schemas';
import { taxRateResource, TaxRateSchema } from '../resources/tax-rate';

const ListQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  offset: Type.Integer({ minimum: 0, maximum: MAX_ID, default: 0, description: 'Rows to skip; when > 0 it replaces page.' }),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc', description: 'Sort direction.' }),
  orderby: Type.Union(['id', 'order', 'priority'].map((v) => Type.Literal(v)), { default: 'order', description: 'Sort field.' }),
});

/**
 * `rate` is a JSON number or a decimal string. One schema with two types
 * (rather than a union) so that a wrong type or a non-decimal string is
 * reported once, by name; the pattern applies to strings only. The range
 * (0 to 99999.9999, 4 places) is the service's rule.
 */
const RateValue = Type.Unsafe<string | number>({
  type: ['string', 'number'],
  pattern: '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$',
  maxLength: 40,
  description: 'Percentage from 0 to 99999.9999, at most 4 decimal places ("20", "7.25" or 7.25).',
});

/** One postcode or city of the array forms; ";" would silently split it in two. */
const ListEntry = Type.String({ maxLength: 200, pattern: '^[^;]*$' });

const writable = {
  country: Type.String({ pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2 code, "" for every country.' }),
  state: Type.String({ maxLength: 200, description: 'State code of the country (US: "CA"), "" for every state.' }),
  postcode: Type.String({ maxLength: 20_000, description: '";"-separated postcodes; ignored when postcodes is given.' }),
  postcodes: Type.Array(ListEntry, { maxItems: 1000, description: 'Postcodes, "12*" wildcards, "10000...19999" ranges.' }),
  city: Type.String({ maxLength: 20_000, description: '";"-separated cities; ignored when cities is given.' }),
  cities: Type.Array(ListEntry, { maxItems: 1000 }),
  rate: RateValue,
  name: Type.String({ maxLength: 200 }),
  priority: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Default 1.' }),
  compound: Type.Boolean({ description: 'Default false.' }),
  shipping: Type.Boolean({ description: 'Default true.' }),
  order: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Default 0.' }),
  class: Type.String({ maxLength: 200, description: 'standard (default), reduced-rate or zero-rate.' }),
};

const CreateBody = Type.Partial(
  Type.Object({ ...writable, id: Type.Unknown({ description: 'Not allowed: tax rates are created without an id.' }) }),
  { additionalProperties: false },
);
const UpdateBody = Type.Partial(Type.Object(writable), { additionalProperties: false });
type CreateFields = Static<typeof CreateBody>;
type UpdateFields = Static<typeof UpdateBody>;

const DeleteQuery = Type.Object({ force: Force('Required to be true, as tax rates do not support trashing.') });
// `force` may also come as a JSON body (host-platform convention); no body at all is null.
const DeleteBody = Nullable(Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false }));

/**
 * A JSON number as the decimal text the service parses: every digit of its
 * shortest round-trip form, never an exponent (1e-7 -> "0.0000001").
 */
function decimalText(value: string | number): string {
  return typeof value === 'string' ? value : value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 100 });
}

/** REST fields -> the proto's optional fields (absent stays absent: patch semantics). */
function rateFields(body: UpdateFields): Omit<fulfillment.UpdateTaxRateRequest, 'id'> {
  return {
    country: body.country,
    state: body.state,
    postcode: body.postcodes ? body.postcodes.join(';') : body.postcode,
    city: body.cities ? body.cities.join(';') : body.city,
    rate: body.rate === undefined ? undefined : decimalText(body.rate),
    name: body.name,
    priority: body.priority,
    compound: body.compound,
    shipping: body.shipping,
    order: body.order,
    class: body.class,
  };
}

/** The single-item operations, shared by the item routes and the batch envelope. */
function taxRateActions(taxes: FulfillmentClients['tax']) {
  return {
    async create(body: CreateFields, request: FastifyRequest) {
      if (body.id !== undefined) throw badRequest('shop_rest_tax_exists', 'Cannot create existing resource.');
      const { taxRate } = await taxes.createTaxRate(rateFields(body), request.caller);
      return taxRateResource(taxRate!, request);
    },
    async update(id: number, body: UpdateFields, request: FastifyRequest) {
      const { taxRate } = await taxes.updateTaxRate({ id, ...rateFields(body) }, request.caller);
      return taxRateResource(taxRate!, request);
    },
    /** The service answers 404 first, then 501 rest_trash_not_supported without force. */
    async delete(id: number, force: boolean, request: FastifyRequest) {
      const { previous } = await taxes.deleteTaxRate({ id, force }, request.caller);
      return taxRateResource(previous!, request);
    },
  };
}

const doc = documented('fulfillment');
const DeletedTaxRate = DeletedSchema(TaxRateSchema, 'DeletedTaxRate');

/** Tax rates (spec 4.4), manage_options. */
export const taxRoutes: RouteModule = (app, ctx) => {
  const taxes = ctx.clients.fulfillment?.tax;
  if (!taxes) return;
  const actions = taxRateActions(taxes);
  const config = { access: 'admin' as const, itemSchema: TaxRateSchema };

  // A static segment wins over `/taxes/:id` in Fastify's router, whatever the order.
  registerBatchRoute<CreateFields, UpdateFields>(app, {
    url: '/taxes/batch',
    access: 'admin',
    limit: ctx.config.BATCH_LIMIT,
    createSchema: CreateBody,
    updateSchema: UpdateBody,
    doc: { tag: 'fulfillment', itemSchema: TaxRateSchema, noun: 'TaxRate', plural: 'TaxRates' },
    handlers: {
      create: (item, request) => actions.create(item, request),
      update: ({ id, ...changes }, request) => actions.update(id, changes, request),
      // Batch deletes are permanent, as in WooCommerce; each result is the deleted rate.
      delete: (id, request) => actions.delete(id, true, request),
    },
  });

  app.get(
    '/taxes',
    { config, schema: { ...doc('listTaxRates', 'List tax rates', { 200: Type.Array(TaxRateSchema) }), querystring: ListQuery } },
    async (request, reply) => {
    const q = request.query;
    const result = await taxes.listTaxRates(
      { page: q.page, perPage: q.per_page, offset: q.offset, order: q.order, orderby: q.orderby },
      request.caller,
    );
    setPaginationHeaders(request, reply, { total: result.total, page: q.page, perPage: q.per_page });
    return result.taxRates.map((rate) => taxRateResource(rate, request));
  });

  app.post(
    '/taxes',
    { config, schema: { ...doc('createTaxRate', 'Create a tax rate', { 201: TaxRateSchema, ...errorResponses(422) }), body: CreateBody } },
    async (request, reply) => {
    const rate = await actions.create(request.body, request);
    reply.code(201).header('Location', `/shop/v1/taxes/${rate.id}`);
    return rate;
  });

  app.get('/taxes/:id', { config, schema: { ...doc('getTaxRate', 'Get a tax rate', { 200: TaxRateSchema }), params: IdParams } }, async (request) => {
    const { taxRate } = await taxes.getTaxRate({ id: request.params.id }, request.caller);
    return taxRateResource(taxRate!, request);
  });

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/taxes/:id',
    config,
    schema: {
      ...doc('updateTaxRate', 'Update a tax rate', { 200: TaxRateSchema, ...errorResponses(422) }),
      params: IdParams,
      body: UpdateBody,
    },
    handler: async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      return actions.update(id, request.body as UpdateFields, request);
    },
  });

  app.delete(
    '/taxes/:id',
    {
      config,
      schema: {
        ...doc('deleteTaxRate', 'Delete a tax rate', { 200: DeletedTaxRate, ...errorResponses(501) }),
        params: IdParams,
        querystring: DeleteQuery,
        body: DeleteBody,
      },
    },
    async (request) => {
      const force = request.query.force || request.body?.force === true;
      return { deleted: true, previous: await actions.delete(request.params.id, force, request) };
    },
  );
};
