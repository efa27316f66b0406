import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Guest cart tokens: 32 url-safe characters, 22 random and 10 of a keyed
 * MAC of those, stored only as a keyed hash. The MAC tells a token this
 * service issued (whose cart may not be stored yet) from one a client made
 * up: that one never names a new cart (no session fixation).
 */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;
const RANDOM_CHARS = 22;

const mac = (secret: string, random: string) => createHmac('sha256', secret).update(`cart-token|${random}`).digest('base64url').slice(0, 32 - RANDOM_CHARS);

export function newToken(secret: string): string {
  const random = randomBytes(16).toString('base64url');
  return random + mac(secret, random);
}

export function isToken(value: string | undefined): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

/** True for a token this service issued (its MAC checks out). */
export function isIssuedToken(secret: string, token: string): boolean {
  const expected = Buffer.from(mac(secret, token.slice(0, RANDOM_CHARS)));
  const given = Buffer.from(token.slice(RANDOM_CHARS));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function tokenHash(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}
