import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'shop_session';

/**
 * The session cookie carries the session's secret token and expiry, signed
 * with the gateway's key: a forged or expired cookie is rejected locally,
 * without a call to the customers service.
 */
export class SessionCookies {
  constructor(private readonly secret: string) {}

  encode(token: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${token}.${expires}.${this.sign(`${token}.${expires}`)}`;
  }

  /** The session token of a valid, unexpired cookie value. */
  decode(value: string | undefined, now = Date.now()): string | undefined {
    return this.read(value, now)?.token;
  }

  /** The token of a valid, unexpired cookie value and when the cookie expires (ms). */
  read(value: string | undefined, now = Date.now()): { token: string; expiresAtMs: number } | undefined {
    if (!value) return undefined;
    const [token, expires, signature] = value.split('.');
    if (!token || !expires || !signature) return undefined;
    const expected = Buffer.from(this.sign(`${token}.${expires}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const expiresAtMs = Number(expires) * 1000;
    return expiresAtMs > now ? { token, expiresAtMs } : undefined;
  }

  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(`cookie|${data}`).digest('base64url');
  }
}

/** The customers service stores sessions under the SHA-256 of their token; events name them so. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
