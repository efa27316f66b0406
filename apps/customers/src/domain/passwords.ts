import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 256 * cost * 8 + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Account passwords: scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, cost);
  return `scrypt$${cost}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, , , salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(cost));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when `stored` was made with a lower scrypt cost than `cost` (or another scheme): rehash on next login. */
export function needsRehash(stored: string, cost: number): boolean {
  const [scheme, storedCost] = stored.split('$');
  return scheme !== 'scrypt' || Number(storedCost) < cost;
}

/** A hash to compare against when the account does not exist, so both paths cost the same. */
export function decoyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('hex'), cost);
}

/** Keyed hash (HMAC-SHA-256) for high-entropy secrets: application passwords, reset keys, session tokens. */
export function keyedHash(key: string, secret: string): string {
  return createHmac('sha256', key).update(secret).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random secret of `length` characters from an unambiguous alphabet (rejection sampling, no bias). */
export function randomSecret(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < ALPHABET.length * 4 && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

/** An opaque token (session ids): 32 random bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
