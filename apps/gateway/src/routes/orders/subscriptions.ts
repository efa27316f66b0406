import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { setPaginationHeaders } from '../../http/pagination';
import { errorResponses } from '../../http/responses';
import { CappedPerPage, Context, IdParams, Page, PerPage } from '../../http/schemas';
import {
  subscriptionDetailResource,
  SubscriptionDetailSchema,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTIONS,
  subscriptionSummaryResource,
  SubscriptionSummarySchema,
} from '../../resources/subscription';

const Status = Type.Optional(Type.String({ enum: [...SUBSCRIPTION_STATUSES], description: 'Only subscriptions in this status.' }));

const MyListQuery = Type.Object({ page: Page, per_page: CappedPerPage(10), status: Status });

const AdminListQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  status: Status,
  after: Type.Optional(Type.String({ maxLength: 40, description: 'Started on or after (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC).' })),
  before: Type.Optional(Type.String({ maxLength: 40, description: 'Started on or before (inclusive; a date alone covers the day).' })),
  context: Context,
});

const ReadQuery = Type.Object({ context: Context });

const tags = ['orders'];

/**
 * Subscriptions (spec 4.10 `me/subscriptions`, 4.11 `subscription`): exist only
 * while the subscriptions addon is active (otherwise 404, as for any unknown
 * route). Another customer's subscription is 404.
 */
export const subscriptionRoutes: RouteModule = (app, ctx) => {
  const subscriptions = ctx.clients.orders?.subscription;
  if (!subscriptions || !ctx.addons.includes('subscriptions')) return;
  const mine = { access: 'logged_in' as const, itemSchema: SubscriptionSummarySchema };

  app.get(
    '/me/subscriptions',
    {
      config: mine,
      schema: {
        operationId: 'listMySubscriptions',
        tags,
        summary: "The caller's subscriptions, newest first.",
        querystring: MyListQuery,
        response: { 200: Type.Array(SubscriptionSummarySchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const perPage = Math.min(100, q.per_page);
      const result = await subscriptions.listMySubscriptions({ page: q.page, perPage, status: q.status ?? '' }, request.caller);
      setPaginationHeaders(request, reply, { total: Number(result.total), page: q.page, perPage });
      return result.subscriptions.map((s) => subscriptionSummaryResource(s, request));
    },
  );

  app.get(
    '/me/subscriptions/:id',
    {
      config: mine,
      schema: {
        operationId: 'getMySubscription',
        tags,
        summary: "One of the caller's subscriptions: schedule, status, related orders, addresses.",
        params: IdParams,
        response: { 200: SubscriptionDetailSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { subscription } = await subscriptions.getMySubscription({ id: request.params.id }, request.caller);
      return subscriptionDetailResource(subscription!, request);
    },
  );

  const transitions = [
    { action: 'cancel', operationId: 'cancelMySubscription', summary: 'Cancel at the end of the paid period: pending_cancel (from active or on_hold).' },
    { action: 'pause', operationId: 'pauseMySubscription', summary: 'Suspend an active subscription: on_hold.' },
    { action: 'resume', operationId: 'resumeMySubscription', summary: 'Reactivate an on_hold or pending_cancel subscription: active.' },
  ] as const;
  for (const t of transitions) {
    app.post(
      `/me/subscriptions/:id/${t.action}`,
      {
        config: { access: 'logged_in' as const },
        schema: {
          operationId: t.operationId,
          tags,
          summary: t.summary,
          description: 'A status the change cannot start from is 500 `shop_rest_status_failed` (spec 3).',
          params: IdParams,
          response: { 200: SubscriptionDetailSchema, ...errorResponses(400, 401, 404, 500) },
        },
      },
      async (request) => {
        const { subscription } = await subscriptions.transitionMySubscription({ id: request.params.id, action: t.action }, request.caller);
        return subscriptionDetailResource(subscription!, request);
      },
    );
  }

  app.get(
    '/subscription',
    {
      config: { access: 'admin', itemSchema: SubscriptionDetailSchema },
      schema: {
        operationId: 'listSubscriptions',
        tags,
        summary: 'Every subscription, newest first (filters: status, after, before on the start date).',
        querystring: AdminListQuery,
        response: { 200: Type.Array(SubscriptionDetailSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const result = await subscriptions.listSubscriptions(
        { page: q.page, perPage: q.per_page, status: q.status ?? '', after: q.after ?? '', before: q.before ?? '', customerId: 0 },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: Number(result.total), page: q.page, perPage: q.per_page });
      const edit = q.context === 'edit';
      return result.subscriptions.map((s) => subscriptionDetailResource(s, request, { collection: SUBSCRIPTIONS, edit }));
    },
  );

  app.get(
    '/subscription/:id',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'getSubscription',
        tags,
        summary: 'One subscription: billing schedule, status, related orders, addresses.',
        params: IdParams,
        querystring: ReadQuery,
        response: { 200: SubscriptionDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { subscription } = await subscriptions.getSubscription({ id: request.params.id }, request.caller);
      return subscriptionDetailResource(subscription!, request, { collection: SUBSCRIPTIONS, edit: request.query.context === 'edit' });
    },
  );
};
