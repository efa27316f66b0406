import { sitePageUrl } from '@storefront/grpc-client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { gone } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { PasswordResetKey, User } from '../persistence/entities';
import { findUserByIdentifier } from '../persistence/users.repository';
import { claimResetRequests, consumeResetKey, enqueueResetRequest } from '../persistence/password-reset.repository';
import { hashPassword, keyedHash, randomSecret, scryptParams } from './passwords';
import { FailureRateLimiter } from './rate-limiter';
import { readSiteOptions } from './site-options';
import { Sessions } from './sessions';
import { requirePasswordLength } from './validation';
import type { CustomersDeps } from './deps';

/** Forgot-password requests per address and per client IP inside the login failure window. */
const MAX_REQUESTS_PER_ADDRESS = 5;
const MAX_REQUESTS_PER_IP = 20;

/**
 * Single-use, expiring reset keys; only their keyed hash is stored.
 *
 * A forgot-password request is rate limited (per address and per client IP)
 * and only queued: the answer costs the same whether or not an account has
 * the address (no enumeration by timing); the lookup, the key and the email
 * event happen right after, off the request path (and on a sweep, should the
 * process stop in between).
 */
export class PasswordResetService {
  private readonly limiter: FailureRateLimiter;
  private processing: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
  ) {
    this.limiter = new FailureRateLimiter(deps.config.LOGIN_FAILURE_WINDOW_SECONDS, deps.config.LOGIN_RATE_LIMIT_ENABLED);
  }

  /** Queues the request; 429 `shop_rate_limited` over the limits. Never reveals whether the account exists. */
  async request(email: string, clientIp?: string): Promise<void> {
    const needle = email.trim().toLowerCase();
    const now = this.deps.now();
    const em = this.deps.db.em();
    await this.limiter.admit(
      em,
      [
        { scope: `reset-address:${needle}`, max: MAX_REQUESTS_PER_ADDRESS },
        ...(clientIp ? [{ scope: `reset-ip:${clientIp}`, max: MAX_REQUESTS_PER_IP }] : []),
      ],
      now,
    );
    await enqueueResetRequest(em, needle, now);
    this.processPending();
  }

  /** Handles queued requests now (coalesced); errors are left for the next sweep. */
  processPending(): Promise<void> {
    if (this.processing) {
      this.again = true;
      return this.processing;
    }
    this.processing = (async () => {
      do {
        this.again = false;
        for (;;) {
          const handled = await this.deps.db.em().transactional(async (em) => {
            const emails = await claimResetRequests(em, 20);
            for (const address of emails) await this.issue(em, address);
            return emails.length;
          });
          if (!handled) break;
        }
      } while (this.again);
    })()
      .catch(() => undefined)
      .finally(() => (this.processing = undefined));
    return this.processing;
  }

  private async issue(em: EntityManager, needle: string): Promise<void> {
    const user = await em.findOne(User, { email: { $ilike: needle.replace(/[\\%_]/g, (c) => `\\${c}`) } });
    if (!user) return;
    const key = randomSecret(20);
    const expiresAt = new Date(this.deps.now().getTime() + this.deps.config.PASSWORD_RESET_TTL_SECONDS * 1000);
    await em.upsert(PasswordResetKey, {
      userId: user.id,
      keyHash: keyedHash(this.deps.pepper, key),
      expiresAt,
      usedAt: null,
    });
    const site = await readSiteOptions(em, this.deps.config);
    const url = new URL(sitePageUrl(site.site_url, '/my-account/lost-password/'));
    url.searchParams.set('key', key);
    url.searchParams.set('login', user.login);
    recordEvent(em, CustomerEvents.passwordResetRequested, {
      userId: user.id,
      email: user.email,
      login: user.login,
      key,
      resetUrl: url.toString(),
      expiresAt,
    });
  }

  /** Sets the new password when the key is valid; returns the login page to go to. */
  async reset(key: string, login: string, password: string): Promise<string> {
    requirePasswordLength(password, this.deps.config.SHOP_MIN_PASSWORD_LENGTH);
    const invalid = () => gone('shop_reset_expired', 'This password reset link is invalid or has expired.');
    const user = await findUserByIdentifier(this.deps.db.em(), login);
    if (!user) throw invalid();
    // The slow hash before the transaction: nothing stays locked while it runs.
    const passwordHash = await hashPassword(password, scryptParams(this.deps.config));
    return this.deps.db.em().transactional(async (em) => {
      const now = this.deps.now();
      if (!(await consumeResetKey(em, user.id, keyedHash(this.deps.pepper, key), now))) throw invalid();
      const managed = await em.findOneOrFail(User, { id: user.id });
      managed.passwordHash = passwordHash;
      managed.modifiedAt = now;
      await this.sessions.endAllOf(em, user.id);
      recordEvent(em, CustomerEvents.passwordResetCompleted, { userId: user.id });
      recordEvent(em, CustomerEvents.customerUpdated, { userId: user.id });
      const site = await readSiteOptions(em, this.deps.config);
      return sitePageUrl(site.site_url, '/my-account/');
    });
  }
}
