import type { Order } from '../../persistence/order-records';

/**
 * Checkout orders this replica has just inserted, each with its row version
 * (`xmin`), kept until their payment result comes (the next write of a
 * checkout order, usually within a second): recording it then needs no read.
 * An entry that went stale (the order changed meanwhile, here or on another
 * replica) fails the write's version guard, which sends the result to the
 * locked path. Bounded (abandoned checkouts): the oldest entries go first.
 */
export class JustCreated {
  private readonly entries = new Map<number, { order: Order; version: string }>();

  constructor(private readonly capacity = 1000) {}

  remember(order: Order, version: string): void {
    this.entries.set(order.id, { order, version });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The order as inserted and its version, once; undefined when unknown here. */
  take(id: number): { order: Order; version: string } | undefined {
    const entry = this.entries.get(id);
    if (entry) this.entries.delete(id);
    return entry;
  }
}
