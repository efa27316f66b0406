import { gone } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events';
import { PasswordResetKey, User } from '../persistence/entities';
import { findUserByIdentifier } from '../persistence/users.repository';
import { hashPassword, keyedHash, randomSecret, sameHash } from './passwords';
import { readSiteOptions } from './site-options';
import { Sessions } from './sessions';
import { requirePasswordLength } from './validation';
import type { CustomersDeps } from './deps';

/** Single-use, expiring reset keys; only their keyed hash is stored. */
export class PasswordResetService {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
  ) {}

  /** Issues a key and asks for the email; does nothing visible when no account has the address. */
  async request(email: string): Promise<void> {
    const needle = email.trim().toLowerCase();
    await this.deps.db.em().transactional(async (em) => {
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
      const url = new URL('/my-account/lost-password/', site.site_url);
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
    });
  }

  /** Sets the new password when the key is valid; returns the login page to go to. */
  async reset(key: string, login: string, password: string): Promise<string> {
    requirePasswordLength(password, this.deps.config.SHOP_MIN_PASSWORD_LENGTH);
    return this.deps.db.em().transactional(async (em) => {
      const now = this.deps.now();
      const user = await findUserByIdentifier(em, login);
      const stored = user ? await em.findOne(PasswordResetKey, { userId: user.id }) : null;
      const valid =
        user && stored && !stored.usedAt && stored.expiresAt > now && sameHash(stored.keyHash, keyedHash(this.deps.pepper, key));
      if (!valid || !user || !stored) throw gone('shop_reset_expired', 'This password reset link is invalid or has expired.');
      stored.usedAt = now;
      const managed = await em.findOneOrFail(User, { id: user.id });
      managed.passwordHash = await hashPassword(password, this.deps.config.SCRYPT_COST);
      managed.modifiedAt = now;
      await this.sessions.endAllOf(em, user.id);
      recordEvent(em, CustomerEvents.passwordResetCompleted, { userId: user.id });
      recordEvent(em, CustomerEvents.customerUpdated, { userId: user.id });
      const site = await readSiteOptions(em, this.deps.config);
      return new URL('/my-account/', site.site_url).toString();
    });
  }
}
