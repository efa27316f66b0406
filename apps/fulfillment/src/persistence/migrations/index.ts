import { initial } from './0001-initial';
import { downloads } from './0002-downloads';
import { revokedOrders } from './0003-revoked-orders';

/** Every migration of the fulfillment schema, in order. Append; never edit a released one. */
export const migrations = [initial, downloads, revokedOrders];
