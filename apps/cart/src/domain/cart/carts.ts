import { invalidParams, notFound, unprocessable } from '@storefront/errors';
import {
  deleteLine,
  deleteLines,
  findCartById,
  findCartByTokenForUpdate,
  insertCart,
  insertCartWithLine,
  lockCart,
  touchCart,
  upsertLine,
} from '../../persistence/carts.repository';
import type { Actor } from '../actor';
import type { CartDeps } from '../deps';
import { CartPricer, refKey, type Lookups } from '../pricing/cart-pricer';
import type { PricedLine, Snapshot } from '../pricing/snapshot';
import { CartSessions, type NewCart, type SessionOutcome } from '../sessions/cart-sessions';
import type { CartRecord } from '../../persistence/cart-record';
import { itemKeyOf, ITEM_KEY } from './item-key';
import { assertStock, MAX_QUANTITY, requirePurchasable } from './stock-rules';

export interface CartResult {
  snapshot: Snapshot;
  session: SessionOutcome;
}

export interface AddItemInput {
  priceId: number;
  productId: number;
  variationId: number;
  quantity: number;
  replaceCart: boolean;
}

/** The cart's lines: add, change, remove, clear; every answer carries the fresh snapshot. */
export class Carts {
  constructor(
    private readonly deps: CartDeps,
    private readonly sessions: CartSessions,
    private readonly pricer: CartPricer,
  ) {}

  async get(actor: Actor, token: string): Promise<CartResult> {
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    return { snapshot: await this.pricer.displayed(cart, actor), session };
  }

  async add(actor: Actor, token: string, input: AddItemInput): Promise<CartResult & { item: PricedLine }> {
    if (!(input.priceId >= 1)) throw invalidParams({ price_id: 'price_id must be at least 1.' });
    if (!(input.quantity >= 1 && input.quantity <= MAX_QUANTITY)) {
      throw invalidParams({ quantity: `quantity must be between 1 and ${MAX_QUANTITY}.` });
    }
    const { cart, session, insert } = await this.sessions.resolveForChange(actor, token);
    const ref = { priceId: input.priceId, productId: input.productId, variationId: input.variationId };
    const existing = input.replaceCart ? [] : cart.lines;
    let lookups = await this.pricer.lookup([ref, ...existing]);
    const p = requirePurchasable(lookups.get(refKey(ref)));
    if (input.productId && input.productId !== p.productId) {
      throw unprocessable('shop_cart_invalid_price', 'The price does not belong to this product.');
    }
    // The line is keyed by what the catalog resolved (variation 0 for simple products).
    const key = itemKeyOf(p.priceId, p.variationId);
    lookups = new Map(lookups).set(refKey(p), lookups.get(refKey(ref))!);
    const checkQuantity = (held: number) => {
      if (held + input.quantity > MAX_QUANTITY) throw invalidParams({ quantity: `A line holds at most ${MAX_QUANTITY} units.` });
      assertStock(p, held + input.quantity);
    };
    checkQuantity(existing.find((l) => l.itemKey === key)?.quantity ?? 0);
    const line = { itemKey: key, productId: p.productId, priceId: p.priceId, variationId: p.variationId, quantity: input.quantity };
    const generation = this.pricer.snapshots.begin();
    const saved =
      (insert && (await insertCartWithLine(this.deps.db.reader, insert, line, this.deps.now()))) ||
      (await this.write(cart.id, async (em, locked) => {
        // Checked again under the lock: a racing add may have raised the line since it was read.
        if (!input.replaceCart) checkQuantity(locked.lines.find((l) => l.itemKey === key)?.quantity ?? 0);
        if (input.replaceCart) await deleteLines(em, locked.id);
        await upsertLine(em, locked.id, line, true);
        // Direct checkout starts from an empty cart: its coupons go with its lines (as DELETE /cart).
        return input.replaceCart ? { bump: true, coupons: [] } : { bump: true };
      }, insert));
    const snapshot = await this.pricer.price(saved, actor, { lookups, memoQuote: true });
    this.pricer.remember(await this.dropLapsedCoupons(saved, snapshot), actor, snapshot, generation);
    const item = snapshot.lines.find((l) => l.itemKey === key)!;
    return { snapshot, session, item };
  }

  async update(actor: Actor, token: string, itemKey: string, quantity: number) {
    if (!(quantity >= 0 && quantity <= MAX_QUANTITY)) throw invalidParams({ quantity: `quantity must be between 0 and ${MAX_QUANTITY}.` });
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    const line = this.requireLine(cart, itemKey);
    let lookups: Lookups | undefined;
    if (quantity > 0) {
      lookups = await this.pricer.lookup(cart.lines);
      assertStock(requirePurchasable(lookups.get(refKey(line))), quantity);
    }
    const saved = await this.write(cart.id, async (em) => {
      if (quantity === 0) await deleteLine(em, cart.id, itemKey);
      else await upsertLine(em, cart.id, { ...line, quantity }, false);
      return { bump: true };
    });
    const snapshot = await this.pricer.price(saved, actor, { lookups });
    await this.dropLapsedCoupons(saved, snapshot);
    const item = quantity === 0 ? undefined : snapshot.lines.find((l) => l.itemKey === itemKey);
    const message = quantity === 0 ? 'Item removed from the cart.' : 'Cart item quantity updated.';
    return { snapshot, session, item, productId: line.productId, priceId: line.priceId, message };
  }

  async remove(actor: Actor, token: string, itemKey: string) {
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    const line = this.requireLine(cart, itemKey);
    // The line as it was, priced, for the response (one lookup serves both snapshots).
    const before = await this.pricer.lookup(cart.lines);
    const saved = await this.write(cart.id, async (em) => {
      await deleteLine(em, cart.id, itemKey);
      return { bump: true };
    });
    // The old cart's quote is usually memoized from its last display.
    const [old, snapshot] = await Promise.all([
      this.pricer.price(cart, actor, { lookups: before, memoQuote: true }),
      this.pricer.price(saved, actor, { lookups: before }),
    ]);
    await this.dropLapsedCoupons(saved, snapshot);
    // As it was priced in the cart (its coupon discount included); a line whose product can no longer be bought is
    // answered as stored, at zero.
    const item = old.lines.find((l) => l.itemKey === itemKey) ?? unpricedLine(line);
    return { snapshot, session, item, productId: line.productId, priceId: line.priceId, message: 'Item removed from the cart.' };
  }

  async clear(actor: Actor, token: string): Promise<CartResult> {
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    if (!cart.id) return { snapshot: await this.pricer.price(cart, actor), session };
    const saved = await this.write(cart.id, async (em) => {
      await deleteLines(em, cart.id);
      return { bump: true, coupons: [] };
    });
    return { snapshot: await this.pricer.price(saved, actor), session };
  }

  /**
   * A change after which an applied coupon no longer qualifies (the subtotal fell under its
   * minimum, it expired or was unpublished, another became exclusive) takes it off the cart, as the
   * host platform does, so it neither blocks the next coupon nor comes back unseen later. The
   * snapshot already left it out: the displayed totals do not move, so the revision stays. An
   * emptied cart keeps its coupons (there is nothing to check them against).
   */
  async dropLapsedCoupons(saved: CartRecord, snapshot: Snapshot): Promise<CartRecord> {
    if (!snapshot.lines.length) return saved;
    const kept = new Set(snapshot.coupons.map((c) => c.code));
    const lapsed = new Set(saved.coupons.filter((c) => !kept.has(c)));
    if (!lapsed.size) return saved;
    return this.write(saved.id, async (_em, locked) => ({ coupons: locked.coupons.filter((c) => !lapsed.has(c)) }));
  }

  private requireLine(cart: CartRecord, itemKey: string) {
    const line = ITEM_KEY.test(itemKey) ? cart.lines.find((l) => l.itemKey === itemKey) : undefined;
    if (!line) throw notFound('shop_cart_item_not_found', 'No cart item with this key.');
    return line;
  }

  /**
   * One short transaction on the locked cart row (never a remote call inside);
   * `insert` (a guest's first change) creates the row in the same transaction.
   */
  async write(
    cartId: string,
    change: (em: import('@mikro-orm/postgresql').EntityManager, cart: CartRecord) => Promise<{ bump?: boolean; coupons?: string[]; fields?: Record<string, string> }>,
    insert?: NewCart,
  ): Promise<CartRecord> {
    return this.deps.db.em().transactional(async (em) => {
      let id = cartId;
      if (insert && !(await insertCart(em, insert, this.deps.now()))) {
        // A twin request carrying the same new token inserted it first.
        id = (insert.tokenHash && (await findCartByTokenForUpdate(em, insert.tokenHash))?.id) || cartId;
      }
      const locked = await lockCart(em, id);
      if (!locked) throw notFound('shop_cart_not_found', 'The cart is gone; reload it.');
      const touched = await change(em, locked);
      await touchCart(em, id, this.deps.now(), touched);
      return (await findCartById(em, id))!;
    });
  }
}

/** A stored line whose product the catalog no longer sells: what the cart holds, nothing priced. */
function unpricedLine(line: { itemKey: string; productId: number; priceId: number; variationId: number; quantity: number }): PricedLine {
  return {
    ...line,
    name: '',
    image: '',
    unit: 0,
    subtotal: 0,
    discount: 0,
    bogoFreeUnits: 0,
    bogoCoupon: '',
    tax: 0,
    sku: '',
    shippingRequired: false,
    downloadable: false,
    priceType: 'onetime',
    stock: { manageStock: false, stockQuantity: null, stockStatus: 'outofstock', backordersAllowed: false },
  };
}
