import { randomUUID } from 'node:crypto';
import { DomainError, unprocessable } from '@storefront/errors';
import type { OrdersDeps } from '../deps';
import type { StockLine } from '../ports';
import type { OrderStatus } from '../status/order-states';

/** catalog's shortage as the admin's error on the order's lines. */
function asLineItemError(err: unknown): unknown {
  return DomainError.is(err) && err.code === 'shop_stock_insufficient' ? unprocessable('shop_order_invalid_line_item', err.message, err.data) : err;
}

/**
 * The stock of an order an admin creates, taken as a checkout's is: catalog
 * reserves its lines under the order's reservation id (which the order's
 * events carry, so catalog commits, restocks and releases with them), before
 * the order is stored. The stock cannot cover the lines: 422
 * `shop_order_invalid_line_item`, nothing stored. An order created on hold
 * keeps its units (committed here), a paid one too (catalog commits on its
 * order_paid); a pending one holds them
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
      throw asLineItemError(err);
    }
    return reservationId;
  }

  /**
   * An edit of an order's lines moves what its reservation holds with it
   * (before `store` writes the edit, undone when it fails): past
   * the stock, 422 `shop_order_invalid_line_item`, nothing changed.
   */
  async editing<T>(
    order: { reservationId: string; status: OrderStatus; paidStatus: string },
    lines: readonly StockLine[],
    before: readonly StockLine[],
    store: (newReservationId: string) => Promise<T>,
  ): Promise<T> {
    const catalog = this.deps.catalog;
    const reservationId = order.reservationId;
    if (!catalog || (!reservationId && order.status === 'checkout_draft')) return store('');
    if (!reservationId) {
      // An order created without lines takes its first lines' units now, checked as at create; `store`
      // gives the order the new reservation's id, and an on-hold order keeps the units (as at create).
      const created = await this.reserve(lines);
      const stored = await this.storing(created, () => store(created));
      if (created) await this.placed(created, order);
      return stored;
    }
    const adjust = (to: readonly StockLine[]) =>
      catalog.adjustReservation(reservationId, to.map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity })));
    try {
      await adjust(lines);
    } catch (err) {
      // Its checkout took coupon uses only (the id names no stock): the order holds no units to move.
      if (DomainError.is(err) && err.code === 'shop_reservation_not_found') return store('');
      throw asLineItemError(err);
    }
    try {
      return await store('');
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

  /**
   * An order created on hold (unpaid: no order_paid will commit it) keeps its
   * units; a paid one's reservation is committed by catalog on its
   * order_paid, a pending one's waits for its payment or expires.
   */
  async placed(reservationId: string, order: { status: OrderStatus; paidStatus: string }): Promise<void> {
    if (!reservationId || order.status !== 'on_hold' || order.paidStatus === 'paid') return;
    try {
      await this.deps.catalog!.commitReservation(reservationId);
    } catch (err) {
      // 409: already settled (committed or lapsed) by the time the order was stored; nothing to keep here.
      if (!(DomainError.is(err) && err.status === 409)) throw err;
    }
  }
}
