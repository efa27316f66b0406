import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { errorResponses } from '../../http/responses';
import { IdParams } from '../../http/schemas';
import { BundleSyncResultSchema } from '../../resources/download';

// No schema defaults here: the query and the body may each carry them, the body wins, then 1 / 25.
const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page of paid orders (default 1).' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Orders per page (default 25, max 100).' })),
};

/** POST /bundle/<id>/sync-purchasers (spec 4.17), manage_options. */
export const bundleRoutes: RouteModule = (app, ctx) => {
  const downloads = ctx.clients.fulfillment?.download;
  if (!downloads) return;

  app.post(
    '/bundle/:id/sync-purchasers',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'syncBundlePurchasers',
        tags: ['fulfillment'],
        summary: 'Grant newly added bundle products to past paid purchasers, one page of orders at a time',
        params: IdParams,
        querystring: Type.Object(Paging),
        body: Type.Object(Paging),
        response: { 200: BundleSyncResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = request.body.page ?? request.query.page ?? 1;
      const perPage = request.body.per_page ?? request.query.per_page ?? 25;
      const r = await downloads.syncBundlePurchasers({ bundleId: request.params.id, page, perPage }, request.caller);
      return {
        total: Number(r.total),
        page: r.page,
        per_page: r.perPage,
        processed: r.processed,
        granted_downloads: r.grantedDownloads,
        synced_orders: r.syncedOrders.map(Number),
        done: r.done,
        next_page: r.nextPage || null,
      };
    },
  );
};
