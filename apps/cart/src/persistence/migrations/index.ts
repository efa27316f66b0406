import { initial } from './0001-initial';
import { placeOrderIndex } from './0002-place-order-index';
import { actionCheckoutIndex } from './0003-action-checkout-index';
import { oneCheckoutAtATime } from './0004-one-checkout-at-a-time';

/** Every migration of the cart schema, in order. Append; never edit a released one. */
export const migrations = [initial, placeOrderIndex, actionCheckoutIndex, oneCheckoutAtATime];
