import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { Session, User } from '../persistence/entities';
import { endLiveSessions } from '../persistence/sessions.repository';
import { principalOf, type Principal } from './principal';
import { randomToken } from './passwords';
import type { CustomersDeps } from './deps';

export interface OpenedSession {
  /** The secret the cookie carries; only its SHA-256 is stored. */
  token: string;
  expiresAt: Date;
  remember: boolean;
}

export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

export class Sessions {
  constructor(private readonly deps: CustomersDeps) {}

  open(em: EntityManager, userId: number, remember: boolean): OpenedSession {
    const now = this.deps.now();
    const ttl = remember ? this.deps.config.SESSION_REMEMBER_TTL_SECONDS : this.deps.config.SESSION_TTL_SECONDS;
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + ttl * 1000);
    em.create(Session, { id: sessionIdOf(token), userId, createdAt: now, expiresAt, remember, endedAt: null });
    return { token, expiresAt, remember };
  }

  async resolve(token: string): Promise<{ principal: Principal; session: OpenedSession }> {
    const em = this.deps.db.em();
    const session = token ? await em.findOne(Session, { id: sessionIdOf(token) }) : null;
    const live = session && !session.endedAt && session.expiresAt > this.deps.now();
    const user = live ? await em.findOne(User, { id: session.userId }) : null;
    if (!session || !user) throw unauthorized('platform_session_invalid', 'The session has ended.');
    return { principal: principalOf(user), session: { token, expiresAt: session.expiresAt, remember: session.remember } };
  }

  async end(token: string): Promise<void> {
    await this.deps.db.em().transactional(async (em) => {
      const session = await em.findOne(Session, { id: sessionIdOf(token) });
      if (!session || session.endedAt) return;
      session.endedAt = this.deps.now();
      recordEvent(em, CustomerEvents.sessionEnded, { sessionId: session.id, userId: session.userId });
    });
  }

  /** Ends every live session of a user except `keepToken`'s (after a password change). */
  async endAllOf(em: EntityManager, userId: number, keepToken?: string): Promise<void> {
    const keep = keepToken ? sessionIdOf(keepToken) : '';
    await endLiveSessions(em, userId, this.deps.now(), keep);
  }
}
