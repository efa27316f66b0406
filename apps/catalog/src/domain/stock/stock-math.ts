import { invalidParams, unprocessable } from '@storefront/errors';

// Pure stock arithmetic: no I/O, so the rules are unit-tested on their own.

export type StockAction = 'add' | 'remove' | 'set';
export type StockStatus = 'instock' | 'outofstock' | 'onbackorder';
export const STOCK_STATUSES: readonly StockStatus[] = ['instock', 'outofstock', 'onbackorder'];

/** Largest level or adjustment accepted: far beyond any shelf, well inside int4. */
export const MAX_STOCK = 1_000_000_000;

export function parseStockAction(value: string): StockAction {
  if (value !== 'add' && value !== 'remove' && value !== 'set') {
    throw invalidParams({ action: 'action must be add, remove or set.' });
  }
  return value;
}

export function requireStockQuantity(field: string, quantity: number, minimum = 0): number {
  if (!Number.isSafeInteger(quantity) || quantity < minimum || quantity > MAX_STOCK) {
    throw invalidParams({ [field]: `${field} must be an integer between ${minimum} and ${MAX_STOCK}.` });
  }
  return quantity;
}

/** Reasons are short machine words (manual, damaged, recount, payment_failed, ...). */
export function parseReason(reason: string, fallback: string): string {
  const value = reason.trim() || fallback;
  if (!/^[A-Za-z0-9_. -]{1,40}$/.test(value)) {
    throw invalidParams({ reason: 'reason must be 1 to 40 letters, digits, spaces or _.-' });
  }
  return value;
}

/** The level after an adjustment; going below zero needs backorders. */
export function levelAfter(before: number, action: StockAction, quantity: number, backordersAllowed: boolean): number {
  const after = action === 'add' ? before + quantity : action === 'remove' ? before - quantity : quantity;
  if (after < 0 && !backordersAllowed) {
    throw unprocessable('shop_stock_insufficient', `Only ${Math.max(before, 0)} in stock; cannot remove ${quantity}.`, {
      available: Math.max(before, 0),
      requested: quantity,
    });
  }
  if (after > MAX_STOCK || after < -MAX_STOCK) {
    throw invalidParams({ quantity: `The resulting level must stay within ${MAX_STOCK}.` });
  }
  return after;
}

export function stockStatusOf(quantity: number, backordersAllowed: boolean): StockStatus {
  if (quantity > 0) return 'instock';
  return backordersAllowed ? 'onbackorder' : 'outofstock';
}

/** A variable product is in stock when any variation is; on backorder when any can be backordered. */
export function combinedStockStatus(statuses: readonly StockStatus[]): StockStatus {
  if (statuses.includes('instock')) return 'instock';
  if (statuses.includes('onbackorder')) return 'onbackorder';
  return 'outofstock';
}

/** True when a level falls from above the threshold to at or below it (fires once per crossing). */
export function crossesLowStock(before: number, after: number, threshold: number): boolean {
  return before > threshold && after <= threshold;
}

/** Whether `requested` units can be taken from `available` on hand. */
export function canTake(available: number, requested: number, backordersAllowed: boolean): boolean {
  return backordersAllowed || available >= requested;
}
