import { Carts } from './cart/carts';
import { CheckoutStates } from './checkout/checkout-state';
import { OrderPayments } from './checkout/pay-order';
import { PlaceOrder } from './checkout/place-order';
import { CheckoutRecovery } from './checkout/recovery';
import { CheckoutSaga } from './checkout/saga';
import { CartCoupons } from './coupons/coupons';
import type { CartDeps } from './deps';
import { CartPricer } from './pricing/cart-pricer';
import { CartSessions } from './sessions/cart-sessions';
import { GuestCartExpiry } from './sessions/guest-expiry';

export type { CartDeps } from './deps';

/** The cart domain, wired once per service instance. */
export function createCartDomain(deps: CartDeps) {
  const sessions = new CartSessions(deps);
  const pricer = new CartPricer(deps);
  const carts = new Carts(deps, sessions, pricer);
  const states = new CheckoutStates(deps, sessions, pricer, carts);
  const saga = new CheckoutSaga(deps);
  const place = new PlaceOrder(deps, sessions, pricer, carts, states, saga);
  return {
    deps,
    sessions,
    pricer,
    carts,
    coupons: new CartCoupons(sessions, pricer, carts),
    checkout: states,
    place,
    payments: new OrderPayments(deps, sessions, pricer, carts, states, place, saga),
    recovery: new CheckoutRecovery(deps, saga),
    expiry: new GuestCartExpiry(deps),
  };
}
export type CartDomain = ReturnType<typeof createCartDomain>;
