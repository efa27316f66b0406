import type { EntityManager } from '@mikro-orm/postgresql';
import { tooManyRequests } from '@storefront/errors';
import { LoginFailure } from '../persistence/entities';

export interface RateLimit {
  scope: string;
  max: number;
}

/**
 * Sliding-window limit on failures (successes are never limited): each failure
 * is a row; a scope is blocked while it has `max` failures inside the window.
 * Kept in Postgres so every replica sees the same counts.
 */
export class FailureRateLimiter {
  constructor(
    private readonly windowSeconds: number,
    private readonly enabled: boolean,
  ) {}

  /** Throws 429 `shop_rate_limited` (with the seconds to wait) when any scope is over its limit. */
  async assertAllowed(em: EntityManager, limits: RateLimit[], now: Date): Promise<void> {
    if (!this.enabled || !limits.length) return;
    const since = new Date(now.getTime() - this.windowSeconds * 1000);
    for (const { scope, max } of limits) {
      const rows = await em.execute<{ count: string; oldest: Date | null }[]>(
        `select count(*) as count, min(failed_at) as oldest from (
           select failed_at from "customers"."login_failures"
           where scope = ? and failed_at > ? order by failed_at desc limit ?) recent`,
        [scope, since, max],
      );
      const { count, oldest } = rows[0];
      if (Number(count) >= max && oldest) {
        const retryAfter = Math.max(1, Math.ceil((new Date(oldest).getTime() + this.windowSeconds * 1000 - now.getTime()) / 1000));
        throw tooManyRequests('shop_rate_limited', 'Too many failed attempts. Please try again later.', retryAfter);
      }
    }
  }

  async recordFailure(em: EntityManager, scopes: string[], now: Date): Promise<void> {
    if (!this.enabled) return;
    for (const scope of scopes) em.create(LoginFailure, { scope, failedAt: now });
    await em.flush();
    const expired = new Date(now.getTime() - this.windowSeconds * 1000);
    await em.execute(`delete from "customers"."login_failures" where scope in (?) and failed_at <= ?`, [scopes, expired]);
  }

  async reset(em: EntityManager, scope: string): Promise<void> {
    await em.execute(`delete from "customers"."login_failures" where scope = ?`, [scope]);
  }
}
