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

export function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}
