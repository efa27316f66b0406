import { DomainError, invalidParams, notFound, unauthorized, unprocessable } from '@storefront/errors';

// The service's error codes (spec 7 and the contract).

export const invalidGateway = () =>
  unprocessable('shop_checkout_invalid_gateway', 'The payment method is not available.');

export const intentUnsupported = () =>
  unprocessable('shop_checkout_intent_unsupported', 'The payment method does not support payment intents.');

export const refundUnsupported = () =>
  unprocessable('shop_order_refund_unsupported', 'The payment method does not support refunds.');

export const paymentMethodsUnsupported = () =>
  unprocessable('shop_payment_methods_unsupported', 'The payment method does not support saving payment methods.');

export const setupUnsupported = () =>
  unprocessable('shop_payment_methods_setup_unsupported', 'Setup intents are supported by the card gateway only.');

export const cardGatewayInactive = () =>
  unprocessable('shop_payment_methods_gateway_inactive', 'The card gateway is not active.');

export const invalidToken = () => notFound('shop_payment_methods_invalid_token', 'Invalid payment method token.');

export const loginRequired = () =>
  unauthorized('shop_payment_methods_login_required', 'You must be logged in to manage payment methods.');

export const idempotencyKeyReused = () =>
  unprocessable('shop_idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');

export const paymentInProgress = () =>
  new DomainError('shop_payment_in_progress', 409, 'A payment with this Idempotency-Key is still being processed.');

export const paymentInProgressForOrder = () =>
  new DomainError('shop_payment_in_progress', 409, 'Another payment of this order is being processed; retry shortly.');

export const orderPaidIntentCanceled = (orderId: number) =>
  new DomainError('shop_order_already_paid', 409, `Order ${orderId} was already paid another way; this payment was canceled and the card not charged.`, {
    order_id: orderId,
  });

export const intentNotFound = () => notFound('shop_payment_intent_invalid', 'Unknown payment intent.');

export const intentExpired = () =>
  new DomainError('shop_payment_intent_expired', 410, 'The payment authorization expired; the payment failed.');

export const orderNotFound = () => notFound('shop_rest_invalid_order', 'Invalid order ID.');

export const invalidAmount = (field = 'amount') => invalidParams({ [field]: `${field} must be a non-negative decimal amount.` });
