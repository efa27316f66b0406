import type { Actor } from '../actor';
import type { CartRecord } from '../../persistence/cart-record';
import type { Snapshot } from './snapshot';

/**
 * Priced snapshots of cart reads, one per cart, reused while the cart's
 * contents (revision, lines, coupons, fields), the caller and the day are the
 * same, for at most `ttlMs`, and until the data they were priced from changes:
 * `invalidate()` (store settings, catalog or fulfillment change events) drops
 * every entry, and a pricing that started before an invalidation is not
 * stored. Only reads use it; place always prices fresh.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { key: string; snapshot: Snapshot; at: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  static keyOf(cart: CartRecord, actor: Actor, today: string): string {
    return JSON.stringify([actor.userId, today, cart.revision, cart.lines, cart.coupons, cart.fields]);
  }

  get(cartId: string, key: string, now: number): Snapshot | undefined {
    const entry = this.entries.get(cartId);
    if (!entry || entry.key !== key || now - entry.at >= this.ttlMs) return undefined;
    return entry.snapshot;
  }

  /** A token to hand back to `set`: stale once `invalidate` ran in between. */
  begin(): number {
    return this.generation;
  }

  set(cartId: string, key: string, snapshot: Snapshot, now: number, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    this.entries.delete(cartId);
    this.entries.set(cartId, { key, snapshot, at: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}
