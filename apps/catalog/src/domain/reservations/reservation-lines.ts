import { conflict, invalidParams } from '@storefront/errors';
import type { ReservationLine } from '../../persistence/entities';
import { sortLevelKeys } from '../../persistence/stock.repository';
import { isId, isIdOrZero } from '../shared/ids';
import { MAX_STOCK } from '../stock/stock-math';

// Validation of what a checkout asks to reserve. Pure: unit-tested directly.

export interface StockLineInput {
  productId: number;
  variationId: number;
  quantity: number;
}

export const MAX_RESERVATION_LINES = 100;

/** Reservation ids are the caller's idempotency keys: 1..100 visible ASCII characters. */
export function parseReservationId(id: string): string {
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(id)) {
    throw invalidParams({ reservation_id: 'reservation_id must be 1 to 100 letters, digits or _.:-' });
  }
  return id;
}

/** Valid, merged (one line per product/variation) and sorted lines. */
export function normalizeLines(lines: readonly StockLineInput[]): StockLineInput[] {
  if (!lines.length) throw invalidParams({ lines: 'At least one line is required.' });
  if (lines.length > MAX_RESERVATION_LINES) throw invalidParams({ lines: `At most ${MAX_RESERVATION_LINES} lines.` });
  const merged = new Map<string, StockLineInput>();
  for (const line of lines) {
    if (!isId(line.productId) || !isIdOrZero(line.variationId)) {
      throw invalidParams({ lines: 'Each line needs a valid product_id and variation_id.' });
    }
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_STOCK) {
      throw invalidParams({ lines: 'Each line needs a quantity of 1 or more.' });
    }
    const key = `${line.productId}:${line.variationId}`;
    const quantity = (merged.get(key)?.quantity ?? 0) + line.quantity;
    if (quantity > MAX_STOCK) throw invalidParams({ lines: 'A line quantity is too large.' });
    merged.set(key, { productId: line.productId, variationId: line.variationId, quantity });
  }
  return sortLevelKeys([...merged.values()]);
}

/** A retry must ask for exactly what the first call reserved. */
export function assertSameLines(stored: readonly ReservationLine[], requested: readonly StockLineInput[]): void {
  const text = (lines: readonly StockLineInput[]) =>
    sortLevelKeys(lines)
      .map((l) => `${l.productId}:${l.variationId}x${l.quantity}`)
      .join(',');
  if (text(stored) !== text(requested)) {
    throw conflict('shop_reservation_conflict', 'This reservation id was already used for different lines.');
  }
}

/** Units to give back when an order is cancelled: what was reserved, capped by what the order still held. */
export function restockQuantities(
  reserved: readonly ReservationLine[],
  cancelled: readonly StockLineInput[],
): StockLineInput[] {
  const held = new Map<string, number>();
  for (const line of cancelled) {
    const key = `${line.productId}:${line.variationId}`;
    held.set(key, (held.get(key) ?? 0) + Math.max(0, line.quantity));
  }
  return reserved
    .filter((line) => line.deducted)
    .map((line) => {
      const cap = cancelled.length ? (held.get(`${line.productId}:${line.variationId}`) ?? 0) : line.quantity;
      return { productId: line.productId, variationId: line.variationId, quantity: Math.min(line.quantity, cap) };
    })
    .filter((line) => line.quantity > 0);
}
