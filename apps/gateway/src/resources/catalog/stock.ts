import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { formatDateTime } from '../../http/dates';
import { resourceLinks } from '../../http/links';
import { LinksSchema } from '../../http/responses';
import { DateTime } from '../../http/schemas';

const StockStatus = Type.Union(['instock', 'outofstock', 'onbackorder'].map((s) => Type.Literal(s)));

/** JSON Schema of one stock movement as the REST API shows it (OPTIONS and OpenAPI). */
export const StockMovementSchema = Type.Object({
  id: Type.Integer({ readOnly: true }),
  product_id: Type.Integer(),
  variation_id: Type.Integer({ description: '0: the product itself.' }),
  user_id: Type.Integer({ description: 'Who changed the level; 0: the system (reservations, their expiry).' }),
  date: DateTime(),
  quantity_before: Type.Integer(),
  quantity_after: Type.Integer(),
  delta: Type.Integer({ description: 'quantity_after - quantity_before.' }),
  reason: Type.String({ description: 'manual, reserved, released, expired, order_cancelled, product_update, ... or the caller\'s own.' }),
  note: Type.String(),
  _links: LinksSchema,
}, { title: 'StockMovement' });

/** JSON Schema of a stock-adjust result: the level after the change, and the movement that records it. */
export const StockAdjustmentSchema = Type.Object({
  product_id: Type.Integer(),
  variation_id: Type.Integer(),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()]),
  stock_status: StockStatus,
  manage_stock: Type.Boolean(),
  backorders_allowed: Type.Boolean(),
  movement: StockMovementSchema,
}, { title: 'StockAdjustment' });

/**
 * Movements have no route of their own, so `self` and `collection` both name
 * the history they belong to (with its `variation_id` filter).
 */
export function movementsPath(productId: number, variationId: number): string {
  const filter = variationId ? `?variation_id=${variationId}` : '';
  return `/shop/v1/products/${productId}/stock-movements${filter}`;
}

/**
 * A movement without `reservation_id`: reservations are keyed by the checkout's
 * order key, which must not reach every holder of edit_shop_products.
 */
export function stockMovementResource(m: catalog.StockMovement, request: FastifyRequest) {
  const history = movementsPath(m.productId, m.variationId);
  return {
    id: m.id,
    product_id: m.productId,
    variation_id: m.variationId,
    user_id: m.userId,
    date: formatDateTime(m.date),
    quantity_before: m.quantityBefore,
    quantity_after: m.quantityAfter,
    delta: m.delta,
    reason: m.reason,
    note: m.note,
    _links: resourceLinks(request, history, history),
  };
}

export function stockAdjustmentResource(result: catalog.AdjustStockResponse, request: FastifyRequest) {
  const level = result.level!;
  return {
    product_id: level.productId,
    variation_id: level.variationId,
    stock_quantity: level.stockQuantity ?? null,
    stock_status: level.stockStatus,
    manage_stock: level.manageStock,
    backorders_allowed: level.backordersAllowed,
    movement: stockMovementResource(result.movement!, request),
  };
}
