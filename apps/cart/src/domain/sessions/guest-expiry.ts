import { deleteAbandonedGuestCarts } from '../../persistence/carts.repository';
import type { CartDeps } from '../deps';

/** Abandoned guest carts (untouched for CART_GUEST_TTL_HOURS) are deleted in batches. */
export class GuestCartExpiry {
  constructor(private readonly deps: CartDeps) {}

  async sweep(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - this.deps.config.CART_GUEST_TTL_HOURS * 3600_000);
    let total = 0;
    for (;;) {
      const n = await this.deps.db.em().transactional((em) => deleteAbandonedGuestCarts(em, before, 500));
      total += n;
      if (n < 500) return total;
    }
  }
}
