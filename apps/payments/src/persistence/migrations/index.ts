import { initial } from './0001-initial';
import { refundKeys } from './0002-refund-keys';

/** Every migration of the payments schema, in order. Append; never edit a released one. */
export const migrations = [initial, refundKeys];
