import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;

const BLOCK_SIZE = 8;

/**
 * scrypt's work is N x p while its memory is 128 x r x N bytes: OWASP lists
 * N=2^17,p=1 and N=2^14,p=5 as equivalent; the second needs 16 MiB per hash
 * instead of 128, which is what keeps the customers process small under a
 * burst of logins.
 */
export interface ScryptCost {
  /** CPU/memory cost N (a power of two). */
  cost: number;
  parallelism: number;
}

function scryptAsync(password: string, salt: Buffer, { cost, parallelism }: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      KEY_LENGTH,
      { N: cost, r: BLOCK_SIZE, p: parallelism, maxmem: 128 * BLOCK_SIZE * cost + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** Account passwords: scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string, params: ScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, params);
  return `scrypt$${params.cost}$${BLOCK_SIZE}$${params.parallelism}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function storedParams(stored: string): (ScryptCost & { salt: string; hash: string }) | undefined {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash || Number(r) !== BLOCK_SIZE) return undefined;
  return { cost: Number(cost), parallelism: Number(p) || 1, salt, hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = storedParams(stored);
  if (!params) return false;
  const expected = Buffer.from(params.hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(params.salt, 'base64'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when `stored` differs from the configured parameters (or is another scheme): rehash on next login. */
export function needsRehash(stored: string, params: ScryptCost): boolean {
  const current = storedParams(stored);
  return !current || current.cost !== params.cost || current.parallelism !== params.parallelism;
}

/** A hash to compare against when the account does not exist, so both paths cost the same. */
export function decoyHash(params: ScryptCost): Promise<string> {
  return hashPassword(randomBytes(12).toString('hex'), params);
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

/** The configured scrypt parameters. */
export function scryptParams(config: { SCRYPT_COST: number; SCRYPT_PARALLELISM: number }): ScryptCost {
  return { cost: config.SCRYPT_COST, parallelism: config.SCRYPT_PARALLELISM };
}
