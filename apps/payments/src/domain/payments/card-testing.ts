import type { EntityManager } from '@mikro-orm/postgresql';
import { tooManyRequests } from '@storefront/errors';
import { countFailure, currentFailures } from '../../persistence/failure-windows.repository';
import type { PaymentsDeps } from '../deps';

/**
 * Card-testing defence (contract "Rate limits"): at most
 * PAYMENT_FAILURE_LIMIT declined or failed attempts per client IP per
 * PAYMENT_FAILURE_WINDOW_SECONDS. The count lives in Postgres and is bumped
 * in one statement, so it holds across gateway and service replicas.
 */
export class CardTestingDefence {
  constructor(private readonly deps: PaymentsDeps) {}

  private get limit() {
    return this.deps.config.PAYMENT_FAILURE_LIMIT;
  }
  private get window() {
    return this.deps.config.PAYMENT_FAILURE_WINDOW_SECONDS;
  }

  /** 429 shop_rate_limited (data.retry_after) when the IP used up its failures. */
  async check(clientIp: string): Promise<void> {
    const window = this.windowOf(clientIp);
    if (!window) return;
    this.refuseOver(await currentFailures(this.deps.db.em(), window.clientIp, window.windowSeconds));
  }

  /** The window a caller reads for `check`'s decision (refuseOver) itself; none when the IP is not limited. */
  windowOf(clientIp: string): { clientIp: string; windowSeconds: number } | undefined {
    return clientIp && this.limit !== 0 ? { clientIp, windowSeconds: this.window } : undefined;
  }

  /** `check` on failures read by the caller (from windowOf's window). */
  refuseOver({ failures, resetsIn }: { failures: number; resetsIn: number }): void {
    if (this.limit !== 0 && failures >= this.limit) {
      throw tooManyRequests(
        'shop_rate_limited',
        'Too many declined payment attempts. Please try again later.',
        Math.max(1, Math.ceil(resetsIn)),
      );
    }
  }

  /** Counts a declined/failed attempt (inside the attempt's transaction). */
  async recordFailure(em: EntityManager, clientIp: string): Promise<void> {
    if (!clientIp || this.limit === 0) return;
    await countFailure(em, clientIp, this.window);
  }
}
