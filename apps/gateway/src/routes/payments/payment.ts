import { Type, type Static } from 'typebox';
import { can } from '@storefront/access';
import { DomainError } from '@storefront/errors';
import type { PaymentsClients } from '../../clients';
import type { RouteModule } from '../../context';
import { setPaginationHeaders } from '../../http/pagination';
import { errorResponses } from '../../http/responses';
import { Context, MAX_ID, Page, PerPage } from '../../http/schemas';
import { PaymentGatewaySchema, paymentGatewayResource, PaymentRecordSchema, paymentRecordResource } from '../../resources/payment';

const OrderRef = Type.Integer({ minimum: 1, maximum: MAX_ID });
const ID_PARAMS = ['id', 'order', 'order_id', 'payment', 'payment_id'] as const;

const PaymentQuery = Type.Object({
  id: Type.Optional({ ...OrderRef, description: 'Order id (any of id, order, order_id, payment, payment_id).' }),
  order: Type.Optional(OrderRef),
  order_id: Type.Optional(OrderRef),
  payment: Type.Optional(OrderRef),
  payment_id: Type.Optional(OrderRef),
  key: Type.Optional(Type.String({ maxLength: 200, description: 'The order key (lets a guest read their order).' })),
  order_key: Type.Optional(Type.String({ maxLength: 200 })),
  context: Context,
});

const AllQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  search: Type.String({ maxLength: 200, default: '' }),
  orderby: Type.Union(['index', 'id', 'title'].map((v) => Type.Literal(v)), { default: 'index' }),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
  include: Type.Array(Type.String({ maxLength: 60 }), { maxItems: 100, default: [] }),
  exclude: Type.Array(Type.String({ maxLength: 60 }), { maxItems: 100, default: [] }),
  slug: Type.Array(Type.String({ maxLength: 60 }), { maxItems: 100, default: [], description: 'Gateway ids.' }),
  status: Type.Union(['any', 'enabled', 'disabled'].map((v) => Type.Literal(v)), { default: 'any', description: 'Enabled in the settings, or not.' }),
  context: Context,
});

const ItemParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Order id.' }) });
const ItemQuery = Type.Object({ context: Context });

const tags = ['payments'];

/** `/payment` (spec 4.14 + contract): order-scoped record, deprecated POST, gateway list, payment detail. */
export function paymentRecordRoutes(app: Parameters<RouteModule>[0], clients: PaymentsClients): void {
  app.get(
    '/payment',
    {
      config: { access: 'public' },
      // An empty, zero or non-numeric id is no id (the host platform's absint): the spec's
      // `invalid-request` when no other names one, not a validation error.
      preValidation: (request, _reply, done) => {
        const query = request.query as Record<string, unknown>;
        for (const name of ID_PARAMS) {
          const value = query[name];
          if (typeof value === 'string' && !/^0*[1-9]\d*$/.test(value.trim())) delete query[name];
        }
        done();
      },
      schema: {
        operationId: 'getOrderPayment',
        tags,
        summary: 'The payment record of an order the caller may see (owner, order key, or manage_options).',
        querystring: PaymentQuery,
        response: { 200: PaymentRecordSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof PaymentQuery>;
      const orderId = ID_PARAMS.map((name) => q[name]).find((v) => v !== undefined);
      if (orderId === undefined) {
        throw new DomainError('invalid-request', 400, 'An order id is required (id, order, order_id, payment or payment_id).');
      }
      const { payment } = await clients.paymentGateway.getPayment(
        { orderId, orderKey: q.key ?? q.order_key ?? '' },
        request.caller,
      );
      return paymentRecordResource(payment!, q.context === 'edit' && can(request.caller, 'manage_options'), request);
    },
  );

  app.post(
    '/payment',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'createPaymentDeprecated',
        tags,
        summary: 'Deprecated: use POST /checkout/place or /checkout/pay-order.',
        deprecated: true,
        response: { ...errorResponses(400) },
      } as object,
    },
    async () => {
      throw new DomainError('endpoint_is_deprecated', 400, 'This endpoint is deprecated. Use /checkout/place or /checkout/pay-order.');
    },
  );

  app.get(
    '/payment/all',
    {
      config: { access: 'admin', itemSchema: PaymentGatewaySchema },
      schema: {
        operationId: 'listPaymentGateways',
        tags,
        summary: 'Every registered payment gateway, available or not, with its metadata.',
        querystring: AllQuery,
        response: { 200: Type.Array(PaymentGatewaySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query as Static<typeof AllQuery>;
      const res = await clients.paymentGateway.listGateways(
        {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          orderby: q.orderby,
          order: q.order,
          include: q.include,
          exclude: q.exclude,
          slug: q.slug,
          status: q.status === 'any' ? '' : q.status,
        },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: res.total, page: q.page, perPage: q.per_page });
      return res.gateways.map((g) => paymentGatewayResource(g, request, q.context));
    },
  );

  app.get(
    '/payment/:id',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'getPayment',
        tags,
        summary: 'The payment record of an order, with its payment attempts in edit context.',
        params: ItemParams,
        querystring: ItemQuery,
        response: { 200: PaymentRecordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as Static<typeof ItemParams>;
      const { context } = request.query as Static<typeof ItemQuery>;
      const { payment } = await clients.paymentGateway.getPayment({ orderId: id, orderKey: '' }, request.caller);
      return paymentRecordResource(payment!, context === 'edit', request);
    },
  );
}
