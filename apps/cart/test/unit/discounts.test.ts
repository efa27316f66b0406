import { describe, expect, it } from '@jest/globals';
import { bogoFreeUnits, computeDiscounts, spread } from '../../src/domain/pricing/discounts';
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
  bogoBuyQuantity: 0,
  bogoGetQuantity: 0,
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

  it('bogo: reward units of each eligible line at its unit price', () => {
    const three = [{ itemKey: 'a', productId: 1, priceId: 11, quantity: 3, subtotal: 3000 }, ...lines.slice(1)];
    const [d] = computeDiscounts(three, [coupon({ discountType: 'bogo', bogoBuyQuantity: 2, bogoGetQuantity: 1, allowedProductIds: [1] })], 2);
    expect(Object.fromEntries(d.byLine)).toEqual({ a: 1000 });
    expect(Object.fromEntries(d.freeUnits)).toEqual({ a: 1 });
    // Buy one get one (quantities unset): 1 of the 2 units of line a, nothing of the single b.
    const [e] = computeDiscounts(lines, [coupon({ discountType: 'bogo' })], 2);
    expect(Object.fromEntries(e.freeUnits)).toEqual({ a: 1 });
    expect(e.total).toBe(1000);
  });

  it.each([
    [3, 2, 1, 1],
    [5, 2, 1, 1],
    [6, 2, 1, 2],
    [2, 2, 1, 0],
    [1, 1, 1, 0],
    [2, 1, 1, 1],
    [7, 1, 2, 4],
    [4, 0, 0, 2],
  ])('bogo units: %i units, buy %i get %i -> %i free', (quantity, buy, get, free) => {
    expect(bogoFreeUnits(quantity, buy, get)).toBe(free);
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
    expect(couponProblem(coupon({ discountType: 'bogo' }), cart)).toBeUndefined();
    expect(couponProblem(coupon({}), { ...cart, lines: [] })).toMatch(/empty cart/);
  });
});
