import { randomUUID } from 'node:crypto';
import { DomainError, unprocessable } from '@storefront/errors';
import type { OrdersDeps } from '../deps';
import type { StockLine } from '../ports';
import type { OrderStatus } from '../status/order-states';

/** Statuses of an order that keeps its units for good (placed on hold, or paid): its reservation is committed. */
const KEEPS_UNITS = new Set<OrderStatus>(['on_hold', 'processing', 'completed']);

/**
 * The stock of an order an admin creates, taken as a checkout's is: catalog
 * reserves its lines under the order's reservation id (which the order's
 * events carry, so catalog commits, restocks and releases with them), before
 * the order is stored. The stock cannot cover the lines: 422
 * `shop_order_invalid_line_item`, nothing stored. An order created on hold or
 * paid keeps its units (committed); a pending one holds them
 * ADMIN_ORDER_RESERVATION_TTL_SECONDS, and its payment later takes them again
 * if they lapsed, as for a checkout's late payment. Without catalog (a test
 * wiring) no stock is taken.
 */
export class AdminOrderStock {
  constructor(private readonly deps: OrdersDeps) {}

  /** The reservation id the order carries ('' when it took no stock). */
  async reserve(lines: ReadonlyArray<{ productId: number; variationId: number; quantity: number }>): Promise<string> {
    const catalog = this.deps.catalog;
    const stock: StockLine[] = lines.map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity }));
    if (!catalog || !stock.length) return '';
    const reservationId = randomUUID();
    try {
      await catalog.reserveStock(reservationId, stock, this.deps.config.ADMIN_ORDER_RESERVATION_TTL_SECONDS);
    } catch (err) {
      if (DomainError.is(err) && err.code === 'shop_stock_insufficient') {
        throw unprocessable('shop_order_invalid_line_item', err.message, err.data);
      }
      throw err;
    }
    return reservationId;
  }

  /**
   * An edit of an order's lines moves what its reservation holds with it
   * (before the edit is stored; `stored` undoes it when storing fails): past
   * the stock, 422 `shop_order_invalid_line_item`, nothing changed.
   */
  async editing<T>(reservationId: string, lines: readonly StockLine[], before: readonly StockLine[], store: () => Promise<T>): Promise<T> {
    const catalog = this.deps.catalog;
    if (!catalog || !reservationId) return store();
    const adjust = (to: readonly StockLine[]) =>
      catalog.adjustReservation(reservationId, to.map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity })));
    try {
      await adjust(lines);
    } catch (err) {
      // Its checkout took coupon uses only (the id names no stock): the order holds no units to move.
      if (DomainError.is(err) && err.code === 'shop_reservation_not_found') return store();
      if (DomainError.is(err) && err.code === 'shop_stock_insufficient') throw unprocessable('shop_order_invalid_line_item', err.message, err.data);
      throw err;
    }
    try {
      return await store();
    } catch (err) {
      // Best effort: the order's next edit (or its cancellation, capped by its lines) settles any difference.
      await adjust(before).catch(() => undefined);
      throw err;
    }
  }

  /** Stores the order (`store`); a store that fails gives the reservation's units back. */
  async storing<T>(reservationId: string, store: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (err) {
      if (reservationId) {
        await this.deps.catalog!.releaseReservation(reservationId, 'released').catch(() => {
          // The reservation lapses by itself (its TTL): nothing is kept past it.
        });
      }
      throw err;
    }
  }

  /** An order that keeps its units (on hold, paid) commits its reservation; a pending one leaves it to expire or to its payment. */
  async placed(reservationId: string, status: OrderStatus): Promise<void> {
    if (!reservationId || !KEEPS_UNITS.has(status)) return;
    try {
      await this.deps.catalog!.commitReservation(reservationId);
    } catch (err) {
      // Committed already (its order_paid came first): nothing to do.
      if (!(DomainError.is(err) && err.status === 409)) throw err;
    }
  }
}
