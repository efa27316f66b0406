import type { Nonces } from './nonce';
import { sessionIdOf, type SessionCookies } from './session-cookie';

export interface VerifiedSession {
  /** The session's secret token (from a validly signed, unexpired cookie). */
  token: string;
  /** The SHA-256 the customers service and its events name the session by. */
  sessionId: string;
  /** Whether the `X-Platform-Nonce` sent with it is valid (without it the caller is a guest). */
  nonceValid: boolean;
}

interface Entry {
  session: VerifiedSession;
  validUntil: number;
}

/**
 * Cookie + nonce checks of signed-in requests, remembered: both are HMACs
 * (and the session id a hash) of the values, the secret and the time, the
 * same on every request of a session. A pair that passed is remembered until
 * the cookie expires or the nonce's tick ends, whichever comes first, then
 * checked again. Only pairs that passed are kept (nobody can make one without
 * the secret), at most `maxEntries`, oldest first out. Whether the session
 * still exists is not decided here (the principal cache and customers are).
 */
export class VerifiedSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly cookies: SessionCookies,
    private readonly nonces: Nonces,
    private readonly maxEntries = 10_000,
  ) {}

  /** The session of a valid cookie (undefined: none, forged or expired), and whether the nonce is valid. */
  verify(cookie: string | undefined, nonce: string | undefined, now = Date.now()): VerifiedSession | undefined {
    if (!cookie) return undefined;
    const key = nonce ? `${cookie}\n${nonce}` : undefined;
    const known = key === undefined ? undefined : this.entries.get(key);
    if (known && now < known.validUntil) return known.session;
    if (known) this.entries.delete(key!);
    const read = this.cookies.read(cookie, now);
    if (!read) return undefined;
    const nonceValid = this.nonces.verify(read.token, nonce, now);
    const session = { token: read.token, sessionId: sessionIdOf(read.token), nonceValid };
    if (nonceValid && key !== undefined) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { session, validUntil: Math.min(read.expiresAtMs, this.nonces.tickEnd(now)) });
    }
    return session;
  }
}
