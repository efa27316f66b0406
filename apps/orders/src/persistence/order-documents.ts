import type { Order } from './order-records';

/**
 * Whole orders that lists have read, by id, each with the version of the order
 * row it was read at (the row's `xmin`, the transaction that wrote that row
 * version). Every write of an order or of its collections writes the order row
 * (replaceContent), so a new content always comes with a new version, and a
 * version is never reused for another content of the same row: a list that
 * reads its page's ids and versions and takes from here only the orders whose
 * version matches serves exactly what the statement's snapshot holds, on any
 * replica. The entries are shared between responses: read-only.
 *
 * Bounded: the least recently used entries go first.
 */
export class OrderDocuments {
  private readonly entries = new Map<number, { version: string; order: Order }>();

  constructor(private readonly capacity = 5000) {}

  /** The order read at `version`, or undefined (never read, evicted, or changed since). */
  get(id: number, version: string): Order | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.order;
  }

  set(id: number, version: string, order: Order): void {
    this.entries.delete(id);
    this.entries.set(id, { version, order });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
