import type { Logger } from 'pino';
import type { CartDomain } from '../domain';
import { intervalJob } from './interval-job';

/** On start and every CHECKOUT_RECOVERY_SECONDS: finish or compensate open sagas. */
export const checkoutRecovery = (domain: CartDomain, seconds: number, logger: Logger) =>
  intervalJob('checkout recovery', () => domain.recovery.recoverOnce(), seconds, logger);
