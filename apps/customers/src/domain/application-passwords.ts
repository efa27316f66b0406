import { randomUUID } from 'node:crypto';
import { notFound, unauthorized } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { ApplicationPassword } from '../persistence/entities';
import { findUserByIdentifier } from '../persistence/users.repository';
import { keyedHash, randomSecret, sameHash } from './passwords';
import { principalOf, type Principal } from './principal';
import type { CustomersDeps } from './deps';
import { credentialLimits, FailureRateLimiter } from './rate-limiter';

const LAST_USED_RESOLUTION_MS = 60_000;

/** Random application passwords for HTTP Basic, shown once, stored as keyed hashes. */
export class ApplicationPasswords {
  private readonly limiter: FailureRateLimiter;

  constructor(private readonly deps: CustomersDeps) {
    this.limiter = new FailureRateLimiter(deps.config.LOGIN_FAILURE_WINDOW_SECONDS, deps.config.LOGIN_RATE_LIMIT_ENABLED);
  }

  async create(userId: number, name: string): Promise<{ record: ApplicationPassword; password: string }> {
    const password = randomSecret(24);
    return this.deps.db.em().transactional(async (em) => {
      const record = em.create(ApplicationPassword, {
        uuid: randomUUID(),
        userId,
        name: name.trim(),
        secretHash: keyedHash(this.deps.pepper, password),
        createdAt: this.deps.now(),
        lastUsedAt: null,
      });
      return { record, password };
    });
  }

  list(userId: number): Promise<ApplicationPassword[]> {
    return this.deps.db.em().find(ApplicationPassword, { userId }, { orderBy: { createdAt: 'asc' } });
  }

  async revoke(userId: number, uuid: string): Promise<ApplicationPassword> {
    return this.deps.db.em().transactional(async (em) => {
      const record = isUuid(uuid) ? await em.findOne(ApplicationPassword, { uuid, userId }) : null;
      if (!record) throw notFound('platform_application_password_not_found', 'The application password was not found.');
      em.remove(record);
      recordEvent(em, CustomerEvents.applicationPasswordRevoked, { userId, uuid });
      return record;
    });
  }

  /** Basic credentials (login or email + application password) to a principal, or 401. */
  async authenticate(identifier: string, password: string, clientIp?: string): Promise<Principal> {
    const em = this.deps.db.em();
    const user = await findUserByIdentifier(em, identifier);
    // Failed Basic credentials count like failed logins (same limits, same atomic check).
    const account = user ? String(user.id) : identifier.trim().toLowerCase();
    const attempt = await this.limiter.admit(em, credentialLimits(this.deps.config, account, clientIp), this.deps.now());
    const hash = keyedHash(this.deps.pepper, password.replace(/\s+/g, ''));
    const records = user ? await em.find(ApplicationPassword, { userId: user.id }) : [];
    const match = records.find((r) => sameHash(r.secretHash, hash));
    if (!user || !match) {
      throw unauthorized('platform_invalid_application_password', 'The provided password is an invalid application password.');
    }
    await attempt.succeeded(em);
    const now = this.deps.now();
    if (!match.lastUsedAt || now.getTime() - match.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      match.lastUsedAt = now;
      await em.flush();
    }
    return principalOf(user);
  }
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
