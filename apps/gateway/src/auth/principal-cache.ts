import type { customers } from '@storefront/proto/customers';

interface Entry {
  principal: customers.Principal;
  expiresAt: number;
}

/**
 * Briefly remembers who a session or application password belongs to, so a
 * request costs no extra gRPC round trip to resolve its caller. Entries expire
 * after `ttlMs`; customers events evict them at once (logout, password or
 * role change, revoked application password, deleted user).
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, now = Date.now()): customers.Principal | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  set(key: string, principal: customers.Principal, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.delete(this.entries.keys().next().value!);
    this.entries.set(key, { principal, expiresAt: now + this.ttlMs });
    const keys = this.byUser.get(principal.userId) ?? new Set<string>();
    keys.add(key);
    this.byUser.set(principal.userId, keys);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.byUser.get(entry.principal.userId)?.delete(key);
  }

  evictUser(userId: number): void {
    for (const key of this.byUser.get(userId) ?? []) this.entries.delete(key);
    this.byUser.delete(userId);
  }
}
