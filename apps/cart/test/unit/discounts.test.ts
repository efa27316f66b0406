import { describe, expect, it } from '@jest/globals';
import { computeDiscounts, spread } from '../../src/domain/pricing/discounts';
import { couponProblem } from '../../src/domain/coupons/coupon-rules';
import type { CouponRecord } from '../../src/domain/ports';

const coupon = (over: Partial<CouponRecord>): CouponRecord => ({
  id: 1,
  code: 'c',
  discountType: 'percent',
  amount: '10',
  usageCount: 0,
  holderUses: 0,
  allowedProductIds: [],
  allowedPriceIds: [],
  allowedCustomerIds: [],
  excludedProductIds: [],
  individualUse: false,
  freeShipping: false,
  ...over,
});
const lines = [
  { itemKey: 'a', productId: 1, priceId: 11, quantity: 2, subtotal: 2000 },
  { itemKey: 'b', productId: 2, priceId: 22, quantity: 1, subtotal: 2500 },
];

describe('coupon discounts (cents)', () => {
  it('percent of each line subtotal, half up', () => {
    const [d] = computeDiscounts(lines, [coupon({ amount: '12.5' })], 2);
    expect(Object.fromEntries(d.byLine)).toEqual({ a: 250, b: 313 });
    expect(d.total).toBe(563);
  });

  it('fixed_cart spreads by largest remainder and never exceeds the lines', () => {
    expect(Object.fromEntries(computeDiscounts(lines, [coupon({ discountType: 'fixed_cart', amount: '10' })], 2)[0].byLine)).toEqual({ a: 444, b: 556 });
    expect(computeDiscounts(lines, [coupon({ discountType: 'fixed_cart', amount: '100' })], 2)[0].total).toBe(4500);
    expect(Object.fromEntries(spread([{ key: 'x', weight: 1000 }, { key: 'y', weight: 1000 }, { key: 'z', weight: 1000 }], 100))).toEqual({ x: 34, y: 33, z: 33 });
  });

  it('fixed_product per unit on allowed products only; excluded products untouched', () => {
    const [d] = computeDiscounts(lines, [coupon({ discountType: 'fixed_product', amount: '3', allowedProductIds: [1] })], 2);
    expect(Object.fromEntries(d.byLine)).toEqual({ a: 600 });
    const [e] = computeDiscounts(lines, [coupon({ excludedProductIds: [2] })], 2);
    expect(Object.fromEntries(e.byLine)).toEqual({ a: 200 });
  });

  it('stacked coupons never take a line below zero', () => {
    const ds = computeDiscounts(lines, [coupon({ amount: '90' }), coupon({ code: 'd', discountType: 'fixed_cart', amount: '50' })], 2);
    expect(ds[0].total + ds[1].total).toBe(4500);
  });
});

describe('coupon validity', () => {
  const cart = { customerId: 7, subtotal: 4500, lines, decimals: 2, today: '2026-11-24' };
  it('says why a coupon cannot be used', () => {
    expect(couponProblem(coupon({ expiryDate: '2026-11-23' }), cart)).toMatch(/expired/);
    expect(couponProblem(coupon({ expiryDate: '2026-11-24' }), cart)).toBeUndefined();
    expect(couponProblem(coupon({ usageLimit: 3, usageCount: 3 }), cart)).toMatch(/usage limit/);
    expect(couponProblem(coupon({ minimumAmount: '45.01' }), cart)).toMatch(/minimum spend/);
    expect(couponProblem(coupon({ maximumAmount: '44.99' }), cart)).toMatch(/maximum spend/);
    expect(couponProblem(coupon({ allowedCustomerIds: [8] }), cart)).toMatch(/not available to you/);
    expect(couponProblem(coupon({ allowedPriceIds: [99] }), cart)).toMatch(/does not apply/);
    expect(couponProblem(coupon({ discountType: 'bogo' }), cart)).toMatch(/buy-one-get-one/);
    expect(couponProblem(coupon({}), { ...cart, lines: [] })).toMatch(/empty cart/);
  });
});
