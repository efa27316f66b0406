import { DomainError, isEmailAddress, notFound, unprocessable } from '@storefront/errors';
import type { CustomersPort } from './ports';

// Orders' own error codes (state-machine errors live with the table in status/order-states.ts).

export const orderNotFound = () => notFound('shop_rest_order_invalid_id', 'Invalid order ID.');

export const lineItemNotFound = (id: number) =>
  notFound('shop_rest_order_item_invalid_id', `Order has no line item ${id}.`, { item_id: id });

export const refundUnsupported = (gateway: string) =>
  unprocessable('shop_order_refund_unsupported', `The payment method "${gateway || 'none'}" cannot refund this order.`);

export const serviceUnavailable = (what: string) =>
  new DomainError('shop_service_unavailable', 503, `${what} is not available.`);

export const editConflict = () =>
  new DomainError('shop_order_edit_conflict', 409, 'The order kept changing while it was being edited; retry.');

export const invalidOrderInput = (params: Record<string, string>) =>
  new DomainError('rest_invalid_param', 400, `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });

/** A billing email, when one is given, must look like one (400 naming `billing.email`, as the host platform's is_email check). */
export function assertBillingEmail(billing: { email?: string } | undefined): void {
  const email = billing?.email?.trim();
  if (email && !isEmailAddress(email)) throw invalidOrderInput({ 'billing.email': `"${email.slice(0, 100)}" is not a valid email address.` });
}

/** The customer an admin's order names must be an account (400 naming `customer_id`); 0 is a guest. */
export async function assertCustomerExists(customers: CustomersPort | undefined, customerId: number | undefined): Promise<void> {
  if (!customerId) return;
  if (customerId < 0 || (customers && !(await customers.existingCustomerIds([customerId])).includes(customerId))) {
    throw invalidOrderInput({ customer_id: `Customer ${customerId} does not exist.` });
  }
}

/** Postgres text cannot hold NUL: a client sending one gets 400 naming the field, never a 500. */
export function assertNoNul(value: unknown, path = 'body'): void {
  if (typeof value === 'string') {
    // JSON-encoded fields (meta values) would carry it as the escape \u0000, which jsonb refuses too.
    if (value.includes('\u0000') || (/json$/i.test(path) && value.includes('\\u0000'))) {
      throw invalidOrderInput({ [path.replace(/Json$/, '')]: 'must not contain NUL characters.' });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertNoNul(v, `${path}[${i}]`));
    return;
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [k, v] of Object.entries(value)) assertNoNul(v, path === 'body' ? k : `${path}.${k}`);
  }
}
