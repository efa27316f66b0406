import type { InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bumpFailedCart, clearPlacedCart } from '../../persistence/carts.repository';
import { completeActionCheckout, failActionCheckout, recordIfNoActionCheckout } from '../../persistence/checkouts.repository';
import type { CartDeps } from '../deps';

/**
 * An order paid after an action step (3-D Secure): the checkout that placed
 * it is complete, so its cart is emptied (unless the customer changed it since).
 */
export async function onOrderPaid(deps: CartDeps, em: EntityManager, orderId: number): Promise<boolean> {
  const checkout = await completeActionCheckout(em, orderId, deps.now());
  if (!checkout?.cartId) return false;
  return clearPlacedCart(em, checkout.cartId, checkout.cartRevision, deps.now());
}

/**
 * An order failed after its action step (the bank step declined, or it
 * expired): the checkout that waited on it fails with a decline, and its cart
 * (kept, as after any decline) gets a new revision, so the customer's same
 * request places anew instead of replaying the dead action step.
 */
export async function onOrderFailed(deps: CartDeps, em: EntityManager, orderId: number, reason: string): Promise<boolean> {
  const message = reason || 'The payment was declined.';
  const outcome = { error: { code: 'shop_payment_declined', status: 402, message, data: { order_id: orderId, outcome: 'declined' } } };
  const checkout = await failActionCheckout(em, orderId, outcome, deps.now());
  if (!checkout?.cartId) return false;
  return bumpFailedCart(em, checkout.cartId, checkout.cartRevision, orderId, deps.now());
}

/**
 * order_paid's (and order_failed's) shortcut (no inbox transaction): most paid orders had no
 * action step, so no checkout waits on them; one statement finds that and
 * records the event as handled. False when a checkout waits (onOrderPaid runs
 * in the consumer's transaction).
 */
export function nothingWaitsOnOrder(deps: CartDeps, orderId: number, inbox: InboxKey): Promise<boolean> {
  return recordIfNoActionCheckout(deps.db.reader, orderId, inbox);
}
