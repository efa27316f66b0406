import { createHmac, randomBytes } from 'node:crypto';

/** Guest cart tokens: 32 random url-safe characters, stored only as a keyed hash. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function isToken(value: string | undefined): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

export function tokenHash(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}
