import type { InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { clearPlacedCart } from '../../persistence/carts.repository';
import { completeActionCheckout, recordIfNoActionCheckout } from '../../persistence/checkouts.repository';
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
 * order_paid's shortcut (no inbox transaction): most paid orders had no
 * action step, so no checkout waits on them; one statement finds that and
 * records the event as handled. False when a checkout waits (onOrderPaid runs
 * in the consumer's transaction).
 */
export function nothingWaitsOnOrder(deps: CartDeps, orderId: number, inbox: InboxKey): Promise<boolean> {
  return recordIfNoActionCheckout(deps.db.reader, orderId, inbox);
}
