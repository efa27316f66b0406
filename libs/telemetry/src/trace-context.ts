import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

// The W3C trace context of the request being served, so events recorded while
// serving it carry the same trace without threading it through domain code.
const storage = new AsyncLocalStorage<string | undefined>();

export function runWithTraceparent<T>(traceparent: string | undefined, fn: () => T): T {
  return storage.run(traceparent, fn);
}

export function currentTraceparent(): string | undefined {
  return storage.getStore();
}

// Random ids come from a pool filled 256 ids at a time: one call into the
// CSPRNG per 256 requests instead of two per request (every request that
// arrives without a traceparent needs one).
const ID_BYTES = 24; // trace id (16) + parent id (8)
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let offset = 0;

export function newTraceparent(): string {
  if (offset >= pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `00-${hex.slice(0, 32)}-${hex.slice(32)}-01`;
}
