import { CachedValue } from '@storefront/grpc-client';

/** How long a gateway's instructions are reused: an admin's change reaches emails within this. */
const TTL_MS = 30_000;
const MAX_GATEWAYS = 64;

/**
 * Gateways' payment instructions (a bank transfer's account details) for
 * order emails, read from payments and kept briefly per gateway. Without
 * payments configured there are none. A failed read throws: the event is
 * delivered again rather than the customer told nothing about how to pay.
 */
export class PaymentInstructions {
  private readonly cache = new Map<string, CachedValue<string>>();

  constructor(private readonly read?: (gatewayId: string) => Promise<string>) {}

  of(gatewayId: string): Promise<string> {
    const read = this.read;
    if (!read || !gatewayId) return Promise.resolve('');
    let cached = this.cache.get(gatewayId);
    if (!cached) {
      // Ids come from orders (an admin may write any): the cache stays small whatever they are.
      if (this.cache.size >= MAX_GATEWAYS) this.cache.clear();
      this.cache.set(gatewayId, (cached = new CachedValue(() => read(gatewayId), TTL_MS)));
    }
    return cached.get();
  }
}
