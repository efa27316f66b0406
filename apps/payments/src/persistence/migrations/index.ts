import { initial } from './0001-initial';
import { refundKeys } from './0002-refund-keys';
import { setupIntentToken } from './0003-setup-intent-token';

/** Every migration of the payments schema, in order. Append; never edit a released one. */
export const migrations = [initial, refundKeys, setupIntentToken];
