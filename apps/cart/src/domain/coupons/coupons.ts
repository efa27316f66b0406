import { unprocessable } from '@storefront/errors';
import type { Actor } from '../actor';
import type { Carts, CartResult } from '../cart/carts';
import { couponHolder, type CartPricer } from '../pricing/cart-pricer';
import type { CartSessions } from '../sessions/cart-sessions';
import { couponProblem } from './coupon-rules';

const invalid = (message: string) => unprocessable('shop_coupon_invalid', message);

/** Normalized form of a code: codes are case-insensitive. */
export function normalizeCode(code: string): string {
  return code.trim().toLowerCase();
}

/** Applying and removing coupons (REST /checkout/coupon/apply and /remove). */
export class CartCoupons {
  constructor(
    private readonly sessions: CartSessions,
    private readonly pricer: CartPricer,
    private readonly carts: Carts,
  ) {}

  async apply(actor: Actor, token: string, rawCode: string): Promise<CartResult & { code: string }> {
    const code = normalizeCode(rawCode ?? '');
    if (!code) throw unprocessable('shop_coupon_empty', 'Please enter a coupon code.');
    if (code.length > 200 || code.includes('\u0000')) throw invalid(`Coupon "${rawCode.slice(0, 50)}" does not exist.`);
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    const known = await this.pricer.fetchCoupons([code, ...cart.coupons], couponHolder(actor, cart.fields));
    const lookups = await this.pricer.lookup(cart.lines);
    // The coupons the cart shows applied: a stored one that stopped qualifying neither counts as
    // applied nor blocks this one, and comes off with this change.
    const current = await this.pricer.price(cart, actor, { lookups, coupons: known });
    const applied = current.lines.length ? current.coupons.map((c) => c.code) : cart.coupons;
    if (applied.includes(code)) throw invalid(`Coupon "${code}" is already applied.`);
    const coupon = known.get(code);
    if (!coupon) throw invalid(`Coupon "${code}" does not exist.`);
    const problem = couponProblem(coupon, {
      customerId: actor.userId,
      // The sum of line subtotals, as the pricer checks it (the snapshot's subtotal is net when prices include tax).
      subtotal: current.lines.reduce((a, l) => a + l.subtotal, 0),
      lines: current.lines,
      decimals: current.decimals,
      today: this.pricer.today(),
    });
    if (problem) throw invalid(problem);
    const exclusive = applied.map((c) => known.get(c)).find((c) => c?.individualUse);
    if (exclusive && !coupon.individualUse) {
      throw invalid(`Coupon "${exclusive.code}" is already applied and cannot be combined with other coupons.`);
    }
    // An individual-use coupon replaces the others.
    const coupons = coupon.individualUse ? [code] : [...applied, code];
    const saved = await this.carts.write(cart.id, async () => ({ coupons, bump: true }));
    const snapshot = await this.pricer.price(saved, actor, { lookups, coupons: known });
    return { code, snapshot, session };
  }

  async remove(actor: Actor, token: string, rawCode: string): Promise<CartResult & { code: string }> {
    const code = normalizeCode(rawCode ?? '');
    if (!code) throw unprocessable('shop_coupon_empty', 'Please enter a coupon code.');
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    if (!cart.coupons.includes(code)) throw invalid(`Coupon "${code}" is not applied to this cart.`);
    const saved = await this.carts.write(cart.id, async (_em, locked) => ({
      coupons: locked.coupons.filter((c) => c !== code),
      bump: true,
    }));
    return { code, snapshot: await this.pricer.price(saved, actor), session };
  }
}
