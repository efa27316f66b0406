import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import {
  DEFAULT_CANCELLABLE,
  isEditable,
  needsPayment,
  ORDER_STATUSES,
  paidStatusFor,
  parseCancellable,
  planCustomerCancel,
  planTransition,
  type OrderStatus,
  type PaidStatus,
} from '../src/domain/status/order-states';

const unpaid = (status: OrderStatus) => ({ status, paidStatus: 'unpaid' as PaidStatus });
const paid = (status: OrderStatus) => ({ status, paidStatus: 'paid' as PaidStatus });

function outcome(fn: () => unknown): string {
  try {
    const plan = fn() as { effect: string } | null;
    return plan ? plan.effect : 'same';
  } catch (err) {
    return DomainError.is(err) ? `${err.status} ${err.code}` : 'crash';
  }
}

describe('order state machine', () => {
  it('payment outcomes: paid lands on processing/completed, on_hold, failed; never from a paid order', () => {
    expect(outcome(() => planTransition(unpaid('pending_payment'), 'processing', 'payment'))).toBe('paid');
    expect(outcome(() => planTransition(unpaid('checkout_draft'), 'completed', 'payment'))).toBe('paid');
    expect(outcome(() => planTransition(unpaid('pending_payment'), 'on_hold', 'payment'))).toBe('on_hold');
    expect(outcome(() => planTransition(unpaid('on_hold'), 'failed', 'payment'))).toBe('failed');
    expect(outcome(() => planTransition(unpaid('failed'), 'processing', 'payment'))).toBe('paid');
    expect(outcome(() => planTransition(paid('processing'), 'failed', 'payment'))).toBe('409 shop_order_invalid_transition');
    expect(outcome(() => planTransition(paid('processing'), 'completed', 'payment'))).toBe('409 shop_order_invalid_transition');
    expect(paidStatusFor(true)).toBe('processing');
    expect(paidStatusFor(false)).toBe('completed');
  });

  it('nothing leaves cancelled or refunded, and nothing returns to checkout_draft', () => {
    for (const to of ORDER_STATUSES) {
      for (const cause of ['admin', 'payment', 'checkout', 'customer', 'refund'] as const) {
        if (to !== 'cancelled') expect(outcome(() => planTransition(unpaid('cancelled'), to, cause))).toBe('409 shop_order_invalid_transition');
        if (to !== 'refunded') expect(outcome(() => planTransition({ status: 'refunded', paidStatus: 'refunded' }, to, cause))).toBe('409 shop_order_invalid_transition');
      }
    }
    for (const from of ORDER_STATUSES.filter((s) => s !== 'checkout_draft')) {
      expect(outcome(() => planTransition(unpaid(from), 'checkout_draft', 'admin'))).toBe('409 shop_order_invalid_transition');
    }
  });

  it('refunds need a paid order; the current status is no transition; unknown statuses are 400', () => {
    expect(outcome(() => planTransition(paid('completed'), 'refunded', 'admin'))).toBe('refunded');
    expect(outcome(() => planTransition(unpaid('pending_payment'), 'refunded', 'admin'))).toBe('409 shop_order_invalid_transition');
    expect(outcome(() => planTransition(unpaid('on_hold'), 'on_hold', 'admin'))).toBe('same');
    expect(outcome(() => planTransition(unpaid('on_hold'), 'shipped', 'admin'))).toBe('400 rest_invalid_param');
  });

  it('customers cancel within the configured set only (409 shop_order_not_cancellable)', () => {
    expect(DEFAULT_CANCELLABLE).toEqual(['pending_payment', 'on_hold']);
    expect(outcome(() => planCustomerCancel(unpaid('pending_payment'), DEFAULT_CANCELLABLE))).toBe('cancelled');
    expect(outcome(() => planCustomerCancel(unpaid('on_hold'), DEFAULT_CANCELLABLE))).toBe('cancelled');
    for (const s of ['checkout_draft', 'failed', 'cancelled'] as const) {
      expect(outcome(() => planCustomerCancel(unpaid(s), DEFAULT_CANCELLABLE))).toBe('409 shop_order_not_cancellable');
    }
    expect(outcome(() => planCustomerCancel(paid('processing'), DEFAULT_CANCELLABLE))).toBe('409 shop_order_not_cancellable');
    const extended = parseCancellable('pending_payment,on_hold,failed,processing');
    expect(outcome(() => planCustomerCancel(unpaid('failed'), extended))).toBe('cancelled');
    expect(outcome(() => planCustomerCancel(paid('processing'), extended))).toBe('cancelled');
    expect(outcome(() => planCustomerCancel(paid('completed'), [...extended, 'completed']))).toBe('409 shop_order_not_cancellable');
    expect(() => parseCancellable('pending_payment,bogus')).toThrow(/bogus/);
  });

  it('editable and needs_payment', () => {
    expect(isEditable(unpaid('pending_payment'))).toBe(true);
    expect(isEditable(unpaid('checkout_draft'))).toBe(true);
    expect(isEditable(paid('on_hold'))).toBe(false);
    expect(isEditable(paid('completed'))).toBe(false);
    expect(isEditable(unpaid('cancelled'))).toBe(false);
    expect(needsPayment({ ...unpaid('pending_payment'), total: 100 })).toBe(true);
    expect(needsPayment({ ...unpaid('pending_payment'), total: 0 })).toBe(false);
    expect(needsPayment({ ...unpaid('cancelled'), total: 100 })).toBe(false);
    expect(needsPayment({ ...paid('processing'), total: 100 })).toBe(false);
  });
});
