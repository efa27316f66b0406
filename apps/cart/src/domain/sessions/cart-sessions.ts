import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  assignCartToCustomer,
  deleteCart,
  findCartByCustomerForUpdate,
  findCartByTokenForUpdate,
  insertCart,
  readCartByCustomer,
  readCartByToken,
  touchCart,
  upsertLine,
} from '../../persistence/carts.repository';
import type { Actor } from '../actor';
import { MAX_QUANTITY } from '../cart/stock-rules';
import { emptyCart, type CartRecord } from '../../persistence/cart-record';
import type { CartDeps } from '../deps';
import { isIssuedToken, isToken, newToken, tokenHash } from './tokens';

/** A cart row to insert (planned by `resolveForChange`). */
export interface NewCart {
  id: string;
  tokenHash: string | null;
  customerId: number | null;
}

/** What the gateway does with the guest token after a call. */
export interface SessionOutcome {
  token: string;
  clear: boolean;
}

export interface ResolvedCart {
  /** The stored cart, or an empty unsaved one (id "") when nothing was stored yet. */
  cart: CartRecord;
  session: SessionOutcome;
}

/**
 * Finds the cart a request acts on. Guests: the cart of their token (a new
 * token when they sent none or a malformed one; the row is written on the
 * first change). Signed-in customers: their own cart; a guest token they still
 * carry is merged into it here, lazily, on the first request after login
 * (same price and variation: quantities add).
 */
export class CartSessions {
  constructor(private readonly deps: CartDeps) {}

  async resolve(actor: Actor, token: string, create: boolean): Promise<ResolvedCart> {
    if (actor.userId > 0) return this.customerCart(actor.userId, isToken(token) ? token : undefined, create);
    const { session, hash, existing } = await this.guestCart(token);
    if (existing || !create) return { cart: existing ?? emptyCart(), session };
    const cart = await this.deps.db.em().transactional(async (em) => {
      await insertCart(em, { id: randomUUID(), tokenHash: hash, customerId: null }, this.deps.now());
      return (await findCartByTokenForUpdate(em, hash))!;
    });
    return { cart, session };
  }

  /**
   * `resolve(create)` for a change: a guest without a stored cart gets a
   * planned one (`insert`), written by the change's own statement or
   * transaction rather than a transaction of its own.
   */
  async resolveForChange(actor: Actor, token: string): Promise<ResolvedCart & { insert?: NewCart }> {
    if (actor.userId > 0) return this.resolve(actor, token, true);
    const { session, hash, existing } = await this.guestCart(token);
    if (existing) return { cart: existing, session };
    const id = randomUUID();
    return { cart: { ...emptyCart(), id }, session, insert: { id, tokenHash: hash, customerId: null } };
  }

  /**
   * A guest's session and its stored cart: their token when it names a cart
   * or was issued here (its cart not stored yet); otherwise (none, malformed,
   * or made up by the client: never adopted) a new one.
   */
  private async guestCart(token: string) {
    const secret = this.deps.tokenSecret;
    if (isToken(token)) {
      const hash = tokenHash(secret, token);
      const existing = await readCartByToken(this.deps.db.reader, hash);
      if (existing || isIssuedToken(secret, token)) return { session: { token, clear: false }, hash, existing };
    }
    const fresh = newToken(secret);
    return { session: { token: fresh, clear: false }, hash: tokenHash(secret, fresh), existing: null };
  }

  private async customerCart(customerId: number, guestToken: string | undefined, create: boolean): Promise<ResolvedCart> {
    const session = { token: '', clear: Boolean(guestToken) };
    if (guestToken) {
      const merged = await this.mergeGuestCart(customerId, tokenHash(this.deps.tokenSecret, guestToken), create);
      if (merged) return { cart: merged, session };
    }
    const existing = await readCartByCustomer(this.deps.db.reader, customerId);
    if (existing || !create) return { cart: existing ?? emptyCart(), session };
    const cart = await this.deps.db.em().transactional(async (em) => {
      await insertCart(em, { id: randomUUID(), tokenHash: null, customerId }, this.deps.now());
      return (await findCartByCustomerForUpdate(em, customerId))!;
    });
    return { cart, session };
  }

  /** Moves a guest cart into the customer's; null when the token has no cart. */
  private mergeGuestCart(customerId: number, hash: string, create: boolean): Promise<CartRecord | null> {
    return this.deps.db.em().transactional(async (em) => {
      const guest = await findCartByTokenForUpdate(em, hash);
      if (!guest) return null;
      const now = this.deps.now();
      const own = await findCartByCustomerForUpdate(em, customerId);
      if (!own) {
        // The guest cart simply becomes the customer's.
        await assignCartToCustomer(em, guest.id, customerId, now);
        return { ...guest, customerId };
      }
      await this.mergeInto(em, own, guest, now);
      await deleteCart(em, guest.id);
      const merged = await findCartByCustomerForUpdate(em, customerId);
      return merged ?? (create ? own : null);
    });
  }

  private async mergeInto(em: EntityManager, own: CartRecord, guest: CartRecord, now: Date): Promise<void> {
    // Quantities add, up to what one line may hold.
    for (const line of guest.lines) await upsertLine(em, own.id, line, true, MAX_QUANTITY);
    // The customer's own coupons stand; the guest's come along only into a cart without any (never a
    // combination nobody applied, such as another coupon beside an individual-use one).
    const coupons = own.coupons.length ? own.coupons : guest.coupons;
    const fields = { ...guest.fields, ...own.fields };
    await touchCart(em, own.id, now, { coupons, fields, bump: guest.lines.length > 0 });
  }
}
