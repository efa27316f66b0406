import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { setPaginationHeaders } from '../../http/pagination';
import { IdParams, MAX_ID, Page, PerPage } from '../../http/schemas';
import { documented, errorResponses } from '../../http/responses';
import {
  StockAdjustmentSchema,
  stockAdjustmentResource,
  stockMovementResource,
  StockMovementSchema,
} from '../../resources/catalog/stock';

const VariationId = Type.Integer({
  minimum: 0,
  maximum: MAX_ID,
  default: 0,
  description: '0: the product itself; a variable product needs one of its variations.',
});

/**
 * Bounds here keep the values inside the proto's integers; the service owns
 * the business limits (level within 1e9, reason a short word, note length).
 */
const AdjustBody = Type.Object(
  {
    action: Type.Union([Type.Literal('add'), Type.Literal('remove'), Type.Literal('set')], {
      description: 'add or remove `quantity` units, or set the level to `quantity`.',
    }),
    quantity: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Units (min 0).' }),
    variation_id: VariationId,
    reason: Type.String({ maxLength: 40, default: 'manual', description: 'Short word: letters, digits, spaces or _.-' }),
    note: Type.String({ maxLength: 1000, default: '' }),
  },
  { additionalProperties: false },
);

const MovementsQuery = Type.Object({
  variation_id: VariationId,
  page: Page,
  per_page: PerPage(25),
});

const doc = documented('catalog');

/** Stock of a product or variation (spec 4.6), edit_shop_products. */
export const stockRoutes: RouteModule = (app, ctx) => {
  const stock = ctx.clients.catalog?.stock;
  if (!stock) return;
  const access = { capability: 'edit_shop_products' };

  // 200, not 201: the adjustment changes an existing level; the movement is its receipt.
  app.post(
    '/products/:id/stock-adjust',
    {
      config: { access, itemSchema: StockAdjustmentSchema },
      schema: {
        ...doc('adjustStock', 'Adjust the stock level of a product or variation', {
          200: StockAdjustmentSchema,
          ...errorResponses(409, 422),
        }),
        params: IdParams,
        body: AdjustBody,
      },
    },
    async (request) => {
      const { action, quantity, variation_id, reason, note } = request.body;
      const result = await stock.adjustStock(
        { productId: request.params.id, variationId: variation_id, action, quantity, reason, note },
        request.caller,
      );
      return stockAdjustmentResource(result, request);
    },
  );

  app.get(
    '/products/:id/stock-movements',
    {
      config: { access, itemSchema: StockMovementSchema },
      schema: {
        ...doc('listStockMovements', 'List the stock movements of a product', { 200: Type.Array(StockMovementSchema), ...errorResponses(422) }),
        params: IdParams,
        querystring: MovementsQuery,
      },
    },
    async (request, reply) => {
      const q = request.query;
      const result = await stock.listStockMovements(
        { productId: request.params.id, variationId: q.variation_id, page: q.page, perPage: q.per_page },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: result.total, page: q.page, perPage: q.per_page });
      return result.movements.map((m) => stockMovementResource(m, request));
    },
  );
};
