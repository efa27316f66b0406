import type { EntityManager } from '@mikro-orm/postgresql';
import { tooManyRequests } from '@storefront/errors';
import { releaseAttempt, reserveAttempt, resetScope } from '../persistence/login-failures.repository';

export interface RateLimit {
  scope: string;
  max: number;
}

/** An admitted attempt: `succeeded()` takes back its provisional failure; otherwise it counts. */
export interface Attempt {
  succeeded(em: EntityManager): Promise<void>;
}

const NOOP: Attempt = { succeeded: async () => undefined };

/**
 * Sliding-window limit on failures (successes are never limited), kept in
 * Postgres so every replica sees the same counts. `admit` is atomic: it
 * checks the limits and records the attempt as a failure in one locked step
 * before the secret is verified, so parallel guesses cannot all slip past a
 * check that has not seen the others yet (40 parallel wrong passwords -> at
 * most `max` verified, the rest 429).
 */
export class FailureRateLimiter {
  constructor(
    private readonly windowSeconds: number,
    private readonly enabled: boolean,
  ) {}

  /** Admits one attempt or throws 429 `shop_rate_limited` (with the seconds to wait). */
  async admit(em: EntityManager, limits: RateLimit[], now: Date): Promise<Attempt> {
    if (!this.enabled || !limits.length) return NOOP;
    const since = new Date(now.getTime() - this.windowSeconds * 1000);
    const result = await reserveAttempt(em, limits, since, now);
    if ('blockedUntil' in result) {
      const retryAfter = Math.max(1, Math.ceil((result.blockedUntil.getTime() - now.getTime()) / 1000));
      throw tooManyRequests('shop_rate_limited', 'Too many failed attempts. Please try again later.', retryAfter);
    }
    return { succeeded: (tx) => releaseAttempt(tx, result.ids) };
  }

  async reset(em: EntityManager, scope: string): Promise<void> {
    await resetScope(em, scope);
  }
}

/** The failure limits of one credential check (login, Basic, current password): per account and per client IP. */
export function credentialLimits(
  config: { LOGIN_MAX_FAILURES_PER_ACCOUNT: number; LOGIN_MAX_FAILURES_PER_IP: number },
  account: string,
  clientIp?: string,
): RateLimit[] {
  return [
    { scope: `account:${account}`, max: config.LOGIN_MAX_FAILURES_PER_ACCOUNT },
    ...(clientIp ? [{ scope: `ip:${clientIp}`, max: config.LOGIN_MAX_FAILURES_PER_IP }] : []),
  ];
}
