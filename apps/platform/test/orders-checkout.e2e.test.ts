import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import type { Platform } from '../src';
import { startStack } from './support/stack';
import { checkoutOrder, connectOrders, systemCaller, type OrdersGrpc } from './support/orders';

let stack: Platform;
let grpc: OrdersGrpc;

beforeAll(async () => {
  stack = await startStack();
  grpc = connectOrders(stack);
});
afterAll(async () => {
  grpc?.close();
  await stack?.stop();
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (DomainError.is(err)) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('OrderCheckoutService (the cart and payments contract)', () => {
  it('CreateOrder is idempotent by checkout_key and stores the totals', async () => {
    const req = checkoutOrder({ customerId: 0 });
    const first = await grpc.checkout.createOrder(req, systemCaller());
    expect(first.existing).toBe(false);
    expect(first.order).toMatchObject({
      status: 'pending_payment',
      paidStatus: 'unpaid',
      total: '27.50',
      subtotal: '20.00',
      shippingTotal: '5.00',
      totalTax: '2.50',
      itemCount: 2,
      needsPayment: true,
      reservationId: req.reservationId,
    });
    expect(first.order!.orderKey).toMatch(/^order_[A-Za-z0-9_-]{16,}$/);
    const again = await grpc.checkout.createOrder(req, systemCaller());
    expect(again.existing).toBe(true);
    expect(again.order!.id).toBe(first.order!.id);
  });

  it('promotes a checkout_draft to pending_payment', async () => {
    const draft = await grpc.checkout.createOrder(checkoutOrder({ status: 'checkout_draft' }), systemCaller());
    expect(draft.order!.status).toBe('checkout_draft');
    const placed = await grpc.checkout.createOrder(
      checkoutOrder({ draftOrderId: draft.order!.id, total: '27.50' }),
      systemCaller(),
    );
    expect(placed.order!.id).toBe(draft.order!.id);
    expect(placed.order!.status).toBe('pending_payment');
  });

  it('rejects totals that do not add up, negative quantities and unknown statuses with 400', async () => {
    expect((await rejection(grpc.checkout.createOrder(checkoutOrder({ total: '99.00' }), systemCaller()))).status).toBe(400);
    const negative = checkoutOrder();
    negative.lineItems[0].quantity = -1;
    expect((await rejection(grpc.checkout.createOrder(negative, systemCaller()))).status).toBe(400);
    expect((await rejection(grpc.checkout.createOrder(checkoutOrder({ status: 'completed' }), systemCaller()))).status).toBe(400);
  });

  it('RecordPaymentResult: paid -> processing (ships), idempotent; failed after paid changes nothing', async () => {
    const { order } = await grpc.checkout.createOrder(checkoutOrder(), systemCaller());
    const paid = await grpc.checkout.recordPaymentResult(
      { orderId: order!.id, outcome: 'paid', transactionId: 'tx-1', paymentMethod: 'cod', paymentMethodTitle: 'Cash', message: '' },
      systemCaller(),
    );
    expect(paid.order).toMatchObject({ status: 'processing', paidStatus: 'paid', transactionId: 'tx-1', needsPayment: false });
    expect(paid.order!.datePaid).toBeInstanceOf(Date);
    const replay = await grpc.checkout.recordPaymentResult(
      { orderId: order!.id, outcome: 'paid', transactionId: 'tx-1', paymentMethod: 'cod', paymentMethodTitle: 'Cash', message: '' },
      systemCaller(),
    );
    expect(replay.order).toMatchObject({ status: 'processing', paidStatus: 'paid' });
    const late = await grpc.checkout.recordPaymentResult(
      { orderId: order!.id, outcome: 'failed', transactionId: '', paymentMethod: '', paymentMethodTitle: '', message: 'x' },
      systemCaller(),
    );
    expect(late.order).toMatchObject({ status: 'processing', paidStatus: 'paid' });
  });

  it('RecordPaymentResult: a downloadable-only order completes; on_hold, failed and requires_action', async () => {
    const digital = checkoutOrder({ shippingLines: [], shippingTotal: '0.00', totalTax: '2.00', total: '22.00' });
    digital.lineItems[0].shippingRequired = false;
    digital.lineItems[0].downloadable = true;
    const { order } = await grpc.checkout.createOrder(digital, systemCaller());
    const paid = await grpc.checkout.recordPaymentResult({ orderId: order!.id, outcome: 'paid', transactionId: 't', paymentMethod: '', paymentMethodTitle: '', message: '' }, systemCaller());
    expect(paid.order).toMatchObject({ status: 'completed', paidStatus: 'paid' });
    expect(paid.order!.dateCompleted).toBeInstanceOf(Date);

    const second = (await grpc.checkout.createOrder(checkoutOrder(), systemCaller())).order!;
    const action = await grpc.checkout.recordPaymentResult({ orderId: second.id, outcome: 'requires_action', transactionId: '', paymentMethod: '', paymentMethodTitle: '', message: '' }, systemCaller());
    expect(action.order!.status).toBe('pending_payment');
    const hold = await grpc.checkout.recordPaymentResult({ orderId: second.id, outcome: 'on_hold', transactionId: '', paymentMethod: 'bacs', paymentMethodTitle: '', message: '' }, systemCaller());
    expect(hold.order!.status).toBe('on_hold');
    const failed = await grpc.checkout.recordPaymentResult({ orderId: second.id, outcome: 'failed', transactionId: '', paymentMethod: '', paymentMethodTitle: '', message: 'declined' }, systemCaller());
    expect(failed.order).toMatchObject({ status: 'failed', paidStatus: 'unpaid' });
    const unknown = await rejection(
      grpc.checkout.recordPaymentResult({ orderId: second.id, outcome: 'maybe', transactionId: '', paymentMethod: '', paymentMethodTitle: '', message: '' }, systemCaller()),
    );
    expect(unknown.status).toBe(400);
  });

  it('GetOrderForPayment: owner, pay_for_order, manage_options or order_key; else 404', async () => {
    const { order } = await grpc.checkout.createOrder(checkoutOrder({ customerId: 77 }), systemCaller());
    const id = order!.id;
    await expect(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: '' }, systemCaller(77))).resolves.toBeDefined();
    await expect(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: '' }, systemCaller(5, ['pay_for_order']))).resolves.toBeDefined();
    await expect(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: '' }, systemCaller(5, ['manage_options']))).resolves.toBeDefined();
    await expect(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: order!.orderKey }, systemCaller())).resolves.toBeDefined();
    expect((await rejection(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: '' }, systemCaller(5)))).status).toBe(404);
    expect((await rejection(grpc.checkout.getOrderForPayment({ orderId: id, orderKey: 'wrong' }, systemCaller()))).status).toBe(404);
    expect((await rejection(grpc.checkout.getOrderForPayment({ orderId: 999999, orderKey: '' }, systemCaller(77)))).status).toBe(404);
  });
});
