import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams, unprocessable } from '@storefront/errors';
import {
  attachOrderToRedemptions,
  couponsByCodes,
  deleteRedemptionsOfKey,
  holderUses,
  insertRedemptions,
  lockRedemptionKey,
  redemptionsByKey,
  releaseRedemptions,
  takeCouponUse,
} from '../../persistence/coupon-redemptions.repository';
import type { CatalogDeps } from '../deps';
import { isIdOrZero } from '../shared/ids';
import type { RedemptionHolder, RedemptionRequest, RedemptionSelector } from '../../persistence/redemption-types';

const MAX_KEY = 200;
const MAX_CODES = 20;

const invalidCoupon = (message: string) => unprocessable('shop_coupon_invalid', message);

/**
 * Coupon uses counted at place-order time (the saga's RedeemCoupons step):
 * all codes of a checkout in one transaction, each by one conditional update
 * against usage_limit, then the per-user count with the coupon row locked, so
 * concurrent checkouts can never exceed a limit. `usage_count` is the number
 * of active redemptions. A redemption key redeems once: a retry replays the
 * first result, except after its redemptions were released, when the next
 * call redeems again (a new attempt of the same checkout).
 */
export class CouponRedemptions {
  constructor(private readonly deps: CatalogDeps) {}

  async redeem(input: RedemptionRequest): Promise<{ couponIds: number[]; replayed: boolean }> {
    const key = checkKey(input.redemptionKey);
    const codes = normalizeCodes(input.codes);
    const holder = checkHolder(input);
    if (!isIdOrZero(input.orderId)) throw invalidParams({ order_id: 'Invalid order id.' });
    const reservationId = checkText('reservation_id', input.reservationId ?? '', 100);
    return this.deps.db.em().transactional(async (em) => {
      await lockRedemptionKey(em, key);
      const existing = await redemptionsByKey(em, key);
      if (existing.some((r) => r.status === 'active')) {
        return { couponIds: existing.map((r) => r.couponId), replayed: true };
      }
      if (existing.length) await deleteRedemptionsOfKey(em, key);
      if (!codes.length) return { couponIds: [], replayed: false };

      const found = new Map((await couponsByCodes(em, codes)).map((c) => [c.code, c]));
      const lines = codes.map((code) => {
        const coupon = found.get(code);
        if (!coupon || coupon.status !== 'publish') throw invalidCoupon(`Coupon "${code}" does not exist.`);
        return { couponId: coupon.id, code };
      });
      // Coupon rows are locked in id order (no deadlock between two checkouts with the same coupons).
      for (const line of [...lines].sort((a, b) => a.couponId - b.couponId)) {
        const taken = await takeCouponUse(em, line.couponId);
        if (!taken) throw invalidCoupon(`Coupon "${line.code}" has reached its usage limit.`);
        const perUser = taken.usageLimitPerUser ?? 0;
        if (perUser > 0 && (holder.customerId > 0 || holder.email)) {
          if ((await holderUses(em, line.couponId, holder)) >= perUser) {
            throw invalidCoupon(`Coupon "${line.code}" has reached its usage limit for this customer.`);
          }
        }
      }
      await insertRedemptions(
        em,
        { redemptionKey: key, orderId: input.orderId, reservationId, holder, now: this.deps.now() },
        lines,
      );
      return { couponIds: lines.map((l) => l.couponId), replayed: false };
    });
  }

  /** Gives back the uses of a redemption key or of an order; idempotent (0 once released). */
  async release(input: { redemptionKey: string; orderId: number }): Promise<number> {
    const key = checkText('redemption_key', input.redemptionKey, MAX_KEY);
    if (!isIdOrZero(input.orderId)) throw invalidParams({ order_id: 'Invalid order id.' });
    if (!key && !input.orderId) throw invalidParams({ redemption_key: 'A redemption key or an order id is required.' });
    return this.deps.db.em().transactional(async (em) => {
      if (key) await lockRedemptionKey(em, key);
      return releaseRedemptions(em, { redemptionKey: key, orderId: input.orderId }, this.deps.now());
    });
  }

  /** Order events (inside the consumer's inbox transaction): release what the order redeemed. */
  releaseForOrder(em: EntityManager, selector: RedemptionSelector): Promise<number> {
    return releaseRedemptions(em, selector, this.deps.now());
  }

  /** order_placed / order_paid: the redemption made with the order's reservation now names the order. */
  attachOrder(em: EntityManager, reservationId: string, orderId: number): Promise<number> {
    return attachOrderToRedemptions(em, reservationId, orderId);
  }
}

function checkText(name: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length > max || text.includes('\u0000')) throw invalidParams({ [name]: `Invalid ${name}.` });
  return text;
}

function checkKey(value: string): string {
  const key = checkText('redemption_key', value, MAX_KEY);
  if (!key) throw invalidParams({ redemption_key: 'The redemption key is required.' });
  return key;
}

/** Lower-cased, trimmed, each code once, empty ones dropped. */
function normalizeCodes(codes: readonly string[]): string[] {
  const out = [...new Set(codes.map((c) => checkText('codes', c, 200).toLowerCase()).filter(Boolean))];
  if (out.length > MAX_CODES) throw invalidParams({ codes: `At most ${MAX_CODES} coupon codes.` });
  return out;
}

function checkHolder(input: RedemptionRequest): RedemptionHolder {
  if (!isIdOrZero(input.customerId)) throw invalidParams({ customer_id: 'Invalid customer id.' });
  return { customerId: input.customerId, email: checkText('email', input.email, 320).toLowerCase() };
}
