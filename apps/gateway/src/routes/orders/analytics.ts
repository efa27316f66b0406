import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { setPaginationHeaders } from '../../http/pagination';
import { documented, errorResponses } from '../../http/responses';
import { IdParams, Page, PerPage } from '../../http/schemas';
import {
  analyticsResource,
  AnalyticsSchema,
  productAnalyticsDetailResource,
  ProductAnalyticsDetailSchema,
  productAnalyticsResource,
  ProductAnalyticsSchema,
} from '../../resources/analytics';

// The shapes are checked here (so they are documented); the orders service
// owns the rules a schema cannot say (real calendar dates, from <= to, the
// longest period) and answers 400 rest_invalid_param for them too.
const MAX_DAYS = 3660;
const DayParam = (description: string) =>
  Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, description }));
const Period = {
  from: DayParam('First day (YYYY-MM-DD, UTC, inclusive). Default: one month ago (one month before `to` when `to` is earlier).'),
  to: DayParam('Last day (YYYY-MM-DD, UTC, inclusive). Default: today.'),
};
const Currency = Type.Optional(
  Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code. Default: the store currency.' }),
);

const AnalyticsQuery = Type.Object({
  ...Period,
  compare: Type.Integer({
    minimum: 1,
    maximum: MAX_DAYS,
    default: 30,
    description: 'The previous window (`previous`): this many days before `from`.',
  }),
  currency: Currency,
});

const ProductListQuery = Type.Object({
  ...Period,
  currency: Currency,
  search: Type.String({ maxLength: 200, default: '', description: 'Part of the product name (case-insensitive).' }),
  page: Page,
  per_page: PerPage(20),
});

const ProductQuery = Type.Object(Period);

const doc = documented('orders');
const ADMIN_ERRORS = [400, 401, 403] as const;

/** Sales analytics (spec 4.17), manage_options; computed by the orders service. */
export const analyticsRoutes: RouteModule = (app, ctx) => {
  const analytics = ctx.clients.orders?.analytics;
  if (!analytics) return;
  const access = 'admin' as const;

  app.get(
    '/analytics',
    {
      config: { access },
      schema: {
        ...doc('getAnalytics', 'Store sales totals, the previous window and daily intervals', {
          200: AnalyticsSchema,
          ...errorResponses(...ADMIN_ERRORS),
        }),
        querystring: AnalyticsQuery,
      },
    },
    async (request) => {
      const q = request.query;
      const report = await analytics.getStoreAnalytics(
        { from: q.from, to: q.to, compare: q.compare, currency: q.currency ?? '' },
        request.caller,
      );
      return analyticsResource(report);
    },
  );

  app.get(
    '/product-analytics',
    {
      config: { access, itemSchema: ProductAnalyticsSchema },
      schema: {
        ...doc('listProductAnalytics', 'Products sold in a period, by net sales', {
          200: Type.Array(ProductAnalyticsSchema),
          ...errorResponses(...ADMIN_ERRORS),
        }),
        querystring: ProductListQuery,
      },
    },
    async (request, reply) => {
      const q = request.query;
      const result = await analytics.listProductAnalytics(
        { from: q.from, to: q.to, currency: q.currency ?? '', search: q.search, page: q.page, perPage: q.per_page },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: result.total, page: q.page, perPage: q.per_page });
      return result.products.map((p) => productAnalyticsResource(p, request));
    },
  );

  app.get(
    '/product-analytics/:id',
    {
      config: { access },
      schema: {
        ...doc('getProductAnalytics', 'One product\'s sales in a period, with daily intervals', {
          200: ProductAnalyticsDetailSchema,
          ...errorResponses(...ADMIN_ERRORS, 404),
        }),
        params: IdParams,
        querystring: ProductQuery,
      },
    },
    async (request) => {
      const q = request.query;
      const report = await analytics.getProductAnalytics({ productId: request.params.id, from: q.from, to: q.to }, request.caller);
      return productAnalyticsDetailResource(report, request);
    },
  );
};
