import { divRoundHalfUp, parseDecimal } from '@storefront/money';
import type { CouponRecord } from '../ports';

/** A line as the discount rules see it (amounts in minor units). */
export interface DiscountLine {
  itemKey: string;
  productId: number;
  priceId: number;
  quantity: number;
  subtotal: number;
}

export interface CouponDiscount {
  code: string;
  /** Per line key, minor units. */
  byLine: Map<string, number>;
  total: number;
  freeShipping: boolean;
  /** bogo coupons: the units of each line (by key) it made free. */
  freeUnits: Map<string, number>;
}

/** Whether a coupon's product/price restrictions let it touch this line. */
export function lineEligible(coupon: CouponRecord, line: { productId: number; priceId: number }): boolean {
  if (coupon.excludedProductIds.includes(line.productId)) return false;
  if (coupon.allowedProductIds.length && !coupon.allowedProductIds.includes(line.productId)) return false;
  if (coupon.allowedPriceIds.length && !coupon.allowedPriceIds.includes(line.priceId)) return false;
  return true;
}

/**
 * Applies coupons in order. Percentages are taken of the line subtotal
 * (not sequentially), fixed_product per unit, fixed_cart spread over the
 * eligible lines in proportion to what is left of them (largest remainder,
 * so the cents add up), bogo as reward units of each eligible line (see
 * bogoFreeUnits) at its unit price; no line is discounted below zero.
 */
export function computeDiscounts(lines: DiscountLine[], coupons: CouponRecord[], decimals: number): CouponDiscount[] {
  const left = new Map(lines.map((l) => [l.itemKey, l.subtotal]));
  return coupons.map((coupon) => {
    const byLine = new Map<string, number>();
    const freeUnits = new Map<string, number>();
    const eligible = lines.filter((l) => lineEligible(coupon, l));
    const take = (key: string, wanted: number) => {
      const got = Math.max(0, Math.min(wanted, left.get(key) ?? 0));
      if (!got) return;
      left.set(key, (left.get(key) ?? 0) - got);
      byLine.set(key, (byLine.get(key) ?? 0) + got);
    };
    const amount = safeAmount(coupon.amount, decimals);
    if (coupon.discountType === 'percent') {
      const percent = safeAmount(coupon.amount, 4); // "12.5" -> 125000 (scale 4)
      for (const l of eligible) take(l.itemKey, Number(divRoundHalfUp(BigInt(l.subtotal) * BigInt(Math.min(percent, 1_000_000)), 1_000_000n)));
    } else if (coupon.discountType === 'fixed_product') {
      for (const l of eligible) take(l.itemKey, amount * l.quantity);
    } else if (coupon.discountType === 'fixed_cart') {
      spread(eligible.map((l) => ({ key: l.itemKey, weight: left.get(l.itemKey) ?? 0 })), amount).forEach((v, k) => take(k, v));
    } else if (coupon.discountType === 'bogo') {
      for (const l of eligible) {
        const free = bogoFreeUnits(l.quantity, coupon.bogoBuyQuantity, coupon.bogoGetQuantity);
        if (!free) continue;
        freeUnits.set(l.itemKey, free);
        take(l.itemKey, (l.subtotal / l.quantity) * free);
      }
    }
    const total = [...byLine.values()].reduce((a, b) => a + b, 0);
    return { code: coupon.code, byLine, total, freeShipping: coupon.freeShipping, freeUnits };
  });
}

/**
 * Reward units of a line under "buy `buy`, get `get` free": every full group
 * of buy + get units has `get` free, and a partial group's units past `buy`
 * are free too (buy 2 get 1: 3 units -> 1, 5 -> 1, 6 -> 2). A quantity of 0
 * in the coupon reads as 1 (buy one, get one).
 */
export function bogoFreeUnits(quantity: number, buy: number, get: number): number {
  const b = Math.max(1, buy);
  const g = Math.max(1, get);
  const groups = Math.floor(quantity / (b + g));
  return groups * g + Math.max(0, quantity - groups * (b + g) - b);
}

function safeAmount(value: string, scale: number): number {
  try {
    return Math.max(0, Number(parseDecimal(value || '0', scale)));
  } catch {
    return 0;
  }
}

/** Splits `amount` (capped at the weights' sum) in proportion to the weights, largest remainder. */
export function spread(parts: { key: string; weight: number }[], amount: number): Map<string, number> {
  const out = new Map<string, number>();
  const sum = parts.reduce((a, p) => a + p.weight, 0);
  if (!sum || amount <= 0) return out;
  const target = Math.min(amount, sum);
  const shares = parts.map((p) => {
    const exact = (BigInt(target) * BigInt(p.weight)) / BigInt(sum);
    const remainder = (BigInt(target) * BigInt(p.weight)) % BigInt(sum);
    return { key: p.key, base: Number(exact), remainder };
  });
  let rest = target - shares.reduce((a, s) => a + s.base, 0);
  const order = [...shares].sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : 0));
  for (const s of order) {
    if (rest <= 0) break;
    s.base += 1;
    rest -= 1;
  }
  for (const s of shares) if (s.base) out.set(s.key, s.base);
  return out;
}
