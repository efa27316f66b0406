import { DomainError, notFound, unprocessable } from '@storefront/errors';

// Orders' own error codes (state-machine errors live with the table in status/order-states.ts).

export const orderNotFound = () => notFound('shop_rest_order_invalid_id', 'Invalid order ID.');

export const lineItemNotFound = (id: number) =>
  notFound('shop_rest_order_item_invalid_id', `Order has no line item ${id}.`, { item_id: id });

export const refundUnsupported = (gateway: string) =>
  unprocessable('shop_order_refund_unsupported', `The payment method "${gateway || 'none'}" cannot refund this order.`);

export const serviceUnavailable = (what: string) =>
  new DomainError('shop_service_unavailable', 503, `${what} is not available.`);

export const invalidOrderInput = (params: Record<string, string>) =>
  new DomainError('rest_invalid_param', 400, `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
