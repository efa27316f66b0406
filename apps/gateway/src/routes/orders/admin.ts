import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { badRequest, invalidParams } from '@storefront/errors';
import type { orders } from '@storefront/proto/orders';
import type { OrdersClients } from '../../clients';
import type { RouteModule } from '../../context';
import { registerBatchRoute } from '../../http/batch';
import { baseUrl } from '../../http/links';
import { trimsMeta } from '../../http/meta-trim';
import { paginationHeaders } from '../../http/pagination';
import { sendConditional } from '../../http/response-cache';
import { errorResponses } from '../../http/responses';
import { Context, Force, IdParams, MAX_ID, MetaTrimming, Nullable, Page, PerPage } from '../../http/schemas';
import { addressFieldsOf } from '../../resources/address';
import { orderResource, OrderSchema } from '../../resources/order';
import {
  addressInput,
  CreateOrderBody,
  ItemParams,
  lineInput,
  LineItemBody,
  metaInput,
  parseStatuses,
  RemoveItemsBody,
  StatusList,
  UpdateItemBody,
  UpdateOrderBody,
  type CreateOrderFields,
  type LineItemFields,
  type UpdateOrderFields,
} from './schemas';

const ListQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  offset: Type.Integer({ minimum: 0, maximum: MAX_ID, default: 0, description: 'Rows to skip; when > 0 it replaces page.' }),
  search: Type.String({ maxLength: 200, default: '', description: 'Matches the order id, billing email, first or last name.' }),
  orderby: Type.Union(['date', 'id', 'modified', 'date_modified', 'total', 'status'].map((v) => Type.Literal(v)), {
    default: 'date',
    description: 'Sort field.',
  }),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc', description: 'Sort direction.' }),
  status: Type.Optional(StatusList),
  customer: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Orders of this customer id.' })),
  after: Type.Optional(Type.String({ maxLength: 40, description: 'Created on or after (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC).' })),
  before: Type.Optional(Type.String({ maxLength: 40, description: 'Created on or before (inclusive; a date alone covers the day).' })),
  context: Context,
  ...MetaTrimming,
});

const ReadQuery = Type.Object({ context: Context, ...MetaTrimming });
const DeleteQuery = Type.Object({ force: Force('Ignored: orders are always deleted permanently.') });
const DeleteBody = Nullable(Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false }));

const DeletedSchema = Type.Object({ deleted: Type.Boolean(), previous: OrderSchema }, { title: 'DeletedOrder' });
const ADMIN_ERRORS = [400, 401, 403] as const;

function createRequest(body: CreateOrderFields) {
  return {
    status: body.status ?? '',
    currency: body.currency ?? '',
    customerId: body.customer_id ?? 0,
    paymentMethod: body.payment_method ?? '',
    paymentMethodTitle: body.payment_method_title ?? '',
    customerNote: body.customer_note ?? '',
    billing: addressInput(body.billing),
    shipping: addressInput(body.shipping),
    lineItems: (body.line_items ?? []).map(lineInput),
    metaData: metaInput(body.meta_data),
    setPaid: body.set_paid ?? false,
    transactionId: body.transaction_id ?? '',
  };
}

function updateRequest(id: number, body: UpdateOrderFields) {
  const billing = addressUpdate(body.billing);
  const shipping = addressUpdate(body.shipping);
  return {
    id,
    status: body.status,
    currency: body.currency,
    customerId: body.customer_id,
    paymentMethod: body.payment_method,
    paymentMethodTitle: body.payment_method_title,
    customerNote: body.customer_note,
    // PUT/PATCH change only the address fields sent (the host platform's behaviour).
    billing: billing.address,
    shipping: shipping.address,
    billingFields: billing.fields,
    shippingFields: shipping.fields,
    lineItems: (body.line_items ?? []).map(lineInput),
    metaData: metaInput(body.meta_data),
    setPaid: body.set_paid ?? false,
    transactionId: body.transaction_id,
    reason: body.reason ?? '',
  };
}

/** The address part of an update: the fields sent and their names; `{}` (no field) changes nothing. */
function addressUpdate(address: Parameters<typeof addressInput>[0]) {
  const fields = addressFieldsOf(address);
  return { address: fields.length ? addressInput(address) : undefined, fields };
}

/**
 * Declared so it is refused rather than silently dropped (unknown fields are
 * removed): an order's coupons come from checkout, where catalog validates and
 * redeems them with the reservation (docs/decisions.md). An empty list applies
 * nothing and passes.
 */
function refuseCouponLines(body: { coupon_lines?: unknown }): void {
  const lines = body.coupon_lines;
  if (lines !== undefined && !(Array.isArray(lines) && lines.length === 0)) {
    throw invalidParams({ coupon_lines: 'coupon_lines cannot be set on an admin order: coupons are applied at checkout.' });
  }
}

function orderActions(admin: OrdersClients['orderAdmin']) {
  return {
    async create(body: CreateOrderFields & { id?: unknown }, request: FastifyRequest) {
      if (body.id !== undefined) throw badRequest('shop_rest_order_exists', 'Cannot create existing order.');
      refuseCouponLines(body);
      const { order } = await admin.adminCreateOrder(createRequest(body), request.caller);
      return orderResource(order!, request, 'edit');
    },
    async update(id: number, body: UpdateOrderFields, request: FastifyRequest) {
      refuseCouponLines(body);
      const { order } = await admin.updateOrder(updateRequest(id, body), request.caller);
      return orderResource(order!, request, 'edit');
    },
    async delete(id: number, request: FastifyRequest) {
      const { previous } = await admin.deleteOrder({ id }, request.caller);
      return orderResource(previous!, request, 'edit');
    },
  };
}

const UPDATE = ['PUT', 'PATCH'] as Array<'PUT' | 'PATCH'>;

/** Orders, admin (spec 4.5), manage_options. `GET /order/get_states/<cc>` lives with the regions. */
export const adminOrderRoutes: RouteModule = (app, ctx) => {
  const admin = ctx.clients.orders?.orderAdmin;
  if (!admin) return;
  const actions = orderActions(admin);
  const config = { access: 'admin' as const, itemSchema: OrderSchema };
  const tags = ['orders'];

  registerBatchRoute<CreateOrderFields, UpdateOrderFields>(app, {
    url: '/order/batch',
    access: 'admin',
    limit: ctx.config.BATCH_LIMIT,
    doc: {
      tag: 'orders',
      itemSchema: OrderSchema,
      noun: 'Order',
      plural: 'Orders',
      deleteSchema: DeletedSchema,
    },
    createSchema: CreateOrderBody,
    updateSchema: UpdateOrderBody,
    handlers: {
      create: (item, request) => actions.create(item, request),
      update: ({ id, ...changes }, request) => actions.update(id, changes, request),
      delete: async (id, request) => ({ deleted: true, previous: await actions.delete(id, request) }),
    },
  });

  app.get(
    '/order',
    {
      config,
      schema: {
        operationId: 'listOrders',
        tags,
        summary: 'List orders (filters: status, customer, after, before, search).',
        querystring: ListQuery,
        response: { 200: Type.Array(OrderSchema), ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const list = (ifNoneMatch: string) =>
        admin.listOrders(
          {
            page: q.page,
            perPage: q.per_page,
            offset: q.offset,
            statuses: parseStatuses(q.status),
            customerId: q.customer ?? 0,
            filterCustomer: q.customer !== undefined,
            after: q.after,
            before: q.before,
            search: q.search,
            orderby: q.orderby === 'modified' ? 'date_modified' : q.orderby,
            order: q.order,
            summary: false,
            ifNoneMatch,
          },
          request.caller,
        );
      const render = (result: { orders: orders.Order[]; total: number }) => ({
        body: result.orders.map((o) => orderResource(o, request, q.context)),
        headers: paginationHeaders(request, { total: result.total, page: q.page, perPage: q.per_page }),
      });
      // Meta trimming works on the response object, not stored bytes: such reads are rendered each time.
      if (trimsMeta(request.query)) {
        const { body, headers } = render(await list(''));
        reply.headers(headers);
        return body;
      }
      // Validated cache: orders checks the page's ETag on every request, so stored bytes are served
      // only while every order on the page is at the version they were rendered from. The key holds
      // no caller: the route is admin-only (the gateway's access check runs first) and the body
      // depends on the data, the URL (context, filters) and the site URL only.
      return sendConditional(request, reply, ctx.responses, `${baseUrl(request)}${request.url}`, async (etag) => {
        const result = await list(etag);
        return { notModified: result.notModified, etag: result.etag, value: result };
      }, render);
    },
  );

  app.post(
    '/order',
    {
      config,
      schema: {
        operationId: 'createOrder',
        tags,
        summary: 'Create an order (line items priced by the catalog, totalled by the quote engine).',
        body: CreateOrderBody,
        response: { 201: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 409, 422) },
      },
    },
    async (request, reply) => {
      const order = await actions.create(request.body, request);
      reply.code(201).header('Location', `/shop/v1/order/${order.id}`);
      return order;
    },
  );

  app.get(
    '/order/:id',
    {
      config,
      schema: {
        operationId: 'getOrder',
        tags,
        summary: 'Read an order.',
        params: IdParams,
        querystring: ReadQuery,
        response: { 200: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => {
      const edit = request.query.context === 'edit';
      const { order, history } = await admin.getOrder({ id: request.params.id, includeHistory: edit }, request.caller);
      return orderResource(order!, request, request.query.context, edit ? history : undefined);
    },
  );

  app.route({
    method: UPDATE,
    url: '/order/:id',
    config,
    schema: {
      operationId: 'updateOrder',
      tags,
      summary: 'Update an order; a status change runs the state machine (paid, refunded...).',
      params: IdParams,
      body: UpdateOrderBody,
      response: { 200: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 404, 409, 422) },
    },
    handler: async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      return actions.update(id, request.body as UpdateOrderFields, request);
    },
  });

  app.delete(
    '/order/:id',
    {
      config,
      schema: {
        operationId: 'deleteOrder',
        tags,
        summary: 'Delete an order permanently.',
        params: IdParams,
        querystring: DeleteQuery,
        body: DeleteBody,
        response: { 200: DeletedSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => ({ deleted: true, previous: await actions.delete(request.params.id, request) }),
  );

  app.post(
    '/order/:id/order_item',
    {
      config,
      schema: {
        operationId: 'addOrderItem',
        tags,
        summary: 'Add a line item (by price_id or product_id) to an editable order.',
        params: IdParams,
        body: LineItemBody,
        response: { 201: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 404, 422) },
      },
    },
    async (request, reply) => {
      const { order } = await admin.addLineItems(
        { orderId: request.params.id, items: [lineInput(request.body as LineItemFields)] },
        request.caller,
      );
      reply.code(201);
      return orderResource(order!, request, 'edit');
    },
  );

  app.delete(
    '/order/:id/order_item',
    {
      config,
      schema: {
        operationId: 'removeOrderItems',
        tags,
        summary: 'Remove line items ({item_ids}) from an editable order.',
        params: IdParams,
        body: RemoveItemsBody,
        response: { 200: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => {
      const { order } = await admin.removeLineItems(
        { orderId: request.params.id, itemIds: request.body.item_ids },
        request.caller,
      );
      return orderResource(order!, request, 'edit');
    },
  );

  app.route({
    method: UPDATE,
    url: '/order/:id/order_item/:item_id',
    config,
    schema: {
      operationId: 'updateOrderItem',
      tags,
      summary: 'Update a line item (quantity, meta_data) of an editable order.',
      params: ItemParams,
      body: UpdateItemBody,
      response: { 200: OrderSchema, ...errorResponses(...ADMIN_ERRORS, 404, 422) },
    },
    handler: async (request) => {
      const { id, item_id } = request.params as Static<typeof ItemParams>;
      const body = request.body as Static<typeof UpdateItemBody>;
      const { order } = await admin.updateLineItem(
        {
          orderId: id,
          itemId: item_id,
          quantity: body.quantity,
          metaJson: body.meta_data ? JSON.stringify(body.meta_data) : undefined,
        },
        request.caller,
      );
      return orderResource(order!, request, 'edit');
    },
  });
};
