import type { EntityManager } from '@mikro-orm/postgresql';
import { clearPlacedCart } from '../../persistence/carts.repository';
import { completeActionCheckout } from '../../persistence/checkouts.repository';
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
