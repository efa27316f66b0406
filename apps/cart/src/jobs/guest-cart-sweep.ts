import type { Logger } from 'pino';
import type { CartDomain } from '../domain';
import { intervalJob } from './interval-job';

/** Deletes abandoned guest carts every CART_SWEEP_SECONDS. */
export const guestCartSweep = (domain: CartDomain, seconds: number, logger: Logger) =>
  intervalJob('guest cart sweep', () => domain.expiry.sweep(), seconds, logger);
