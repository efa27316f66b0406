import { createHmac, timingSafeEqual } from 'node:crypto';

const TICK_MS = 12 * 3600 * 1000;

/**
 * REST nonces bound to one session: valid for the current and the previous
 * 12-hour tick (a nonce lives 12 to 24 hours), as the host platform does.
 * A cookie without a valid nonce counts as logged out (CSRF protection).
 */
export class Nonces {
  constructor(private readonly secret: string) {}

  issue(sessionToken: string, now = Date.now()): string {
    return this.forTick(sessionToken, Math.ceil(now / TICK_MS));
  }

  verify(sessionToken: string, nonce: string | undefined, now = Date.now()): boolean {
    if (!nonce) return false;
    const tick = Math.ceil(now / TICK_MS);
    return [tick, tick - 1].some((t) => safeEqual(this.forTick(sessionToken, t), nonce));
  }

  /** When the current tick ends: a nonce that verifies now still verifies until then. */
  tickEnd(now = Date.now()): number {
    return Math.ceil(now / TICK_MS) * TICK_MS;
  }

  private forTick(sessionToken: string, tick: number): string {
    return createHmac('sha256', this.secret).update(`nonce|rest|${sessionToken}|${tick}`).digest('hex').slice(0, 12);
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
