import { leaseOpenCheckouts } from '../../persistence/checkouts.repository';
import type { Actor } from '../actor';
import type { CartDeps } from '../deps';
import type { CheckoutSaga } from './saga';

const SYSTEM: Actor = { userId: 0, login: '', roles: [], capabilities: [], requestId: 'cart-recovery' };

/**
 * Finishes or compensates sagas whose request died (a cart instance killed
 * mid-checkout): every open saga untouched for CHECKOUT_RECOVERY_AFTER_SECONDS,
 * leased with SKIP LOCKED so replicas never resume the same one twice.
 */
export class CheckoutRecovery {
  constructor(
    private readonly deps: CartDeps,
    private readonly saga: CheckoutSaga,
  ) {}

  async recoverOnce(): Promise<number> {
    if (!this.deps.orders || !this.deps.payments) return 0;
    const now = this.deps.now();
    const stale = new Date(now.getTime() - this.deps.config.CHECKOUT_RECOVERY_AFTER_SECONDS * 1000);
    const lease = new Date(now.getTime() + 5 * 60_000);
    const open = await this.deps.db.em().transactional((em) => leaseOpenCheckouts(em, now, stale, lease, 20));
    let done = 0;
    for (const c of open) {
      try {
        const actor = { ...SYSTEM, userId: c.customerId };
        await this.saga.resume(c, actor);
        done++;
        this.deps.logger.info({ checkout: c.id, step: c.step, status: c.status }, 'open checkout recovered');
      } catch (err) {
        this.deps.logger.warn({ err, checkout: c.id, step: c.step }, 'checkout recovery failed; retried after the lease');
      }
    }
    return done;
  }
}
