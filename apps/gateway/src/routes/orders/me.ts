import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import type { SiteSettingsCache } from '../../site-settings';
import { setPaginationHeaders } from '../../http/pagination';
import { errorResponses } from '../../http/responses';
import { CappedPerPage, IdParams, Page } from '../../http/schemas';
import {
  InvoiceSchema,
  orderDetailResource,
  OrderDetailSchema,
  orderSummaryResource,
  OrderSummarySchema,
  PayOrderSchema,
} from '../../resources/order';
import { parseStatuses, StatusList } from './schemas';

const ListQuery = Type.Object({
  page: Page,
  per_page: CappedPerPage(10),
  status: Type.Optional(StatusList),
});

/** The configured site URL (never the request's Host), without a trailing slash. */
async function siteUrl(site: SiteSettingsCache): Promise<string> {
  const settings = await site.get();
  return settings.siteUrl.replace(/\/+$/, '');
}

/** The signed-in customer's orders (spec 4.9 `me/orders`); another customer's order is 404. */
export const myOrderRoutes: RouteModule = (app, ctx) => {
  const mine = ctx.clients.orders?.customerOrder;
  if (!mine) return;
  const config = { access: 'logged_in' as const, itemSchema: OrderSummarySchema };
  const tags = ['orders'];
  const ERRORS = [401, 404] as const;

  app.get(
    '/me/orders',
    {
      config,
      schema: {
        operationId: 'listMyOrders',
        tags,
        summary: "The caller's orders (drafts excluded), newest first.",
        querystring: ListQuery,
        response: { 200: Type.Array(OrderSummarySchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const perPage = Math.min(100, q.per_page);
      const statuses = parseStatuses(q.status);
      const result = await mine.listMyOrders({ page: q.page, perPage, statuses }, request.caller);
      setPaginationHeaders(request, reply, { total: result.total, page: q.page, perPage });
      return result.orders.map((o) => orderSummaryResource(o, request));
    },
  );

  app.get(
    '/me/orders/:id',
    {
      config,
      schema: {
        operationId: 'getMyOrder',
        tags,
        summary: "One of the caller's orders: lines, totals, addresses, payment, downloads.",
        params: IdParams,
        response: { 200: OrderDetailSchema, ...errorResponses(400, ...ERRORS) },
      },
    },
    async (request) => {
      const { order } = await mine.getMyOrder({ id: request.params.id }, request.caller);
      return orderDetailResource(order!, request);
    },
  );

  app.post(
    '/me/orders/:id/cancel',
    {
      config,
      schema: {
        operationId: 'cancelMyOrder',
        tags,
        summary: 'Cancel the order when its status is cancellable; else 409.',
        params: IdParams,
        response: { 200: OrderDetailSchema, ...errorResponses(400, ...ERRORS, 409) },
      },
    },
    async (request) => {
      const { order } = await mine.cancelMyOrder({ id: request.params.id }, request.caller);
      return orderDetailResource(order!, request);
    },
  );

  app.post(
    '/me/orders/:id/pay',
    {
      config,
      schema: {
        operationId: 'payMyOrder',
        tags,
        summary: 'Where to pay an unpaid order; 409 when already paid.',
        params: IdParams,
        response: { 200: PayOrderSchema, ...errorResponses(400, ...ERRORS, 409) },
      },
    },
    async (request) => {
      const { order } = await mine.payMyOrder({ id: request.params.id }, request.caller);
      const o = order!;
      const base = await siteUrl(ctx.site);
      const query = new URLSearchParams({ pay_for_order: 'true', key: o.orderKey });
      return {
        order_id: o.id,
        pay_url: `${base}/checkout/order-pay/${o.id}/?${query}`,
        amount: Number(o.total),
        currency: o.currency,
      };
    },
  );

  app.get(
    '/me/orders/:id/invoice',
    {
      config,
      schema: {
        operationId: 'getMyOrderInvoice',
        tags,
        summary: "The order's invoice URL (its view page).",
        params: IdParams,
        response: { 200: InvoiceSchema, ...errorResponses(400, ...ERRORS) },
      },
    },
    async (request) => {
      const { order } = await mine.getMyOrder({ id: request.params.id }, request.caller);
      const base = await siteUrl(ctx.site);
      return { order_id: order!.id, invoice_url: `${base}/my-account/view-order/${order!.id}/` };
    },
  );
};
