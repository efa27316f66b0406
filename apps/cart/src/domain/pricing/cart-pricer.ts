import { toMinor, fromMinor } from '@storefront/money';
import type { Actor } from '../actor';
import type { CartRecord, LineRecord } from '../../persistence/cart-record';
import { couponProblem } from '../coupons/coupon-rules';
import type { CartDeps } from '../deps';
import type { CouponRecord, LookupResult, PurchasableRef, StoreSettingsView } from '../ports';
import { destinationOf } from './destination';
import { computeDiscounts } from './discounts';
import type { PricedLine, Snapshot } from './snapshot';

export type Lookups = Map<string, LookupResult>;

export const refKey = (r: { priceId: number; productId?: number; variationId: number }) => `${r.priceId}:${r.variationId}`;

export interface PriceOptions {
  /** Lookups already made in this request (reused; missing lines are looked up in one call). */
  lookups?: Lookups;
  /** Field values to price against instead of the stored ones (place: the submitted address). */
  fields?: Record<string, string>;
  /** Coupons already fetched in this request. */
  coupons?: Map<string, CouponRecord | undefined>;
}

/**
 * Prices a cart: one batched catalog lookup for every line, the applied
 * coupons re-checked and spread over the lines, then one quote (shipping
 * rates and every tax) from fulfillment.
 */
export class CartPricer {
  constructor(private readonly deps: CartDeps) {}

  async lookup(refs: PurchasableRef[], known: Lookups = new Map()): Promise<Lookups> {
    const missing = refs.filter((r) => !known.has(refKey(r)));
    if (!missing.length) return known;
    const unique = [...new Map(missing.map((r) => [refKey(r), r])).values()];
    const results = await this.deps.catalog.purchasables(unique);
    const out = new Map(known);
    unique.forEach((r, i) => out.set(refKey(r), results[i]));
    return out;
  }

  async fetchCoupons(codes: string[], known = new Map<string, CouponRecord | undefined>()) {
    const missing = codes.filter((c) => !known.has(c));
    const found = await Promise.all(missing.map((c) => this.deps.catalog.findCoupon(c)));
    const out = new Map(known);
    missing.forEach((c, i) => out.set(c, found[i]));
    return out;
  }

  async price(cart: CartRecord, actor: Actor, options: PriceOptions = {}): Promise<Snapshot> {
    const settings = await this.deps.settings.store();
    const fields = options.fields ?? cart.fields;
    const decimals = settings.priceDecimals;
    if (!cart.lines.length) return this.empty(settings, cart.coupons.length ? ['The cart is empty.'] : []);
    const [lookups, couponMap] = await Promise.all([
      this.lookup(cart.lines, options.lookups),
      cart.coupons.length ? this.fetchCoupons(cart.coupons, options.coupons) : Promise.resolve(new Map<string, CouponRecord | undefined>()),
    ]);
    const notices: string[] = [];
    const lines = this.pricedLines(cart.lines, lookups, decimals, notices);
    if (!lines.length) return this.empty(settings, notices);
    const subtotal = lines.reduce((a, l) => a + l.subtotal, 0);
    const coupons = this.validCoupons(cart.coupons, couponMap, { actor, subtotal, lines, decimals, notices });
    const discounts = computeDiscounts(lines, coupons, decimals);
    for (const d of discounts) for (const [key, v] of d.byLine) lines.find((l) => l.itemKey === key)!.discount += v;

    const quote = await this.deps.quotes.quote({
      destination: destinationOf(fields),
      lines: lines.map((l) => ({
        key: l.itemKey,
        amount: fromMinor(l.subtotal - l.discount, decimals),
        quantity: l.quantity,
        shippingRequired: l.shippingRequired,
      })),
      couponFreeShipping: discounts.some((d) => d.freeShipping),
      pricesIncludeTax: settings.pricesIncludeTax,
      chosenRateId: fields.shipping_method ?? '',
    });
    for (const l of lines) l.tax = toMinor(quote.lineTaxes.get(l.itemKey) ?? '0', decimals);
    const discount = lines.reduce((a, l) => a + l.discount, 0);
    const total = toMinor(quote.totals.total, decimals);
    return {
      lines,
      currency: settings.currency,
      decimals,
      currencySymbol: settings.currencySymbol,
      totals: {
        subtotal,
        discount,
        shipping: toMinor(quote.totals.shippingTotal, decimals),
        shippingTax: toMinor(quote.totals.shippingTax, decimals),
        tax: toMinor(quote.totals.taxTotal, decimals),
        total,
      },
      needsShipping: quote.needsShipping,
      needsPayment: total > 0,
      coupons: discounts.map((d) => ({ code: d.code, discount: d.total, freeShipping: d.freeShipping })),
      itemCount: lines.reduce((a, l) => a + l.quantity, 0),
      rates: quote.rates,
      chosenRate: quote.chosenRateId,
      taxLines: quote.taxLines,
      pricesIncludeTax: settings.pricesIncludeTax,
      hasSubscription: lines.some((l) => l.priceType === 'subscription'),
      urls: { cart: settings.pages.cart, checkout: settings.pages.checkout, shop: settings.pages.shop },
      notices,
    };
  }

  private pricedLines(records: LineRecord[], lookups: Lookups, decimals: number, notices: string[]): PricedLine[] {
    const out: PricedLine[] = [];
    for (const r of records) {
      const found = lookups.get(refKey(r));
      if (!found || 'error' in found) {
        notices.push(`An item is no longer available and was left out (${found && 'error' in found ? found.error.message : 'unknown'}).`);
        continue;
      }
      const p = found.purchasable;
      const unit = toMinor(p.unitAmount, decimals);
      out.push({
        itemKey: r.itemKey,
        productId: p.productId,
        priceId: p.priceId,
        variationId: p.variationId,
        name: p.name,
        image: p.image,
        quantity: r.quantity,
        unit,
        subtotal: unit * r.quantity,
        discount: 0,
        tax: 0,
        sku: p.sku,
        shippingRequired: p.shippingRequired,
        downloadable: p.downloadable,
        priceType: p.priceType,
        stock: p.stock,
      });
    }
    return out;
  }

  private validCoupons(
    codes: string[],
    found: Map<string, CouponRecord | undefined>,
    ctx: { actor: Actor; subtotal: number; lines: PricedLine[]; decimals: number; notices: string[] },
  ): CouponRecord[] {
    const view = { customerId: ctx.actor.userId, subtotal: ctx.subtotal, lines: ctx.lines, decimals: ctx.decimals, today: this.today() };
    const out: CouponRecord[] = [];
    for (const code of codes) {
      const coupon = found.get(code);
      const problem = coupon ? couponProblem(coupon, view) : `Coupon "${code}" does not exist.`;
      if (problem) ctx.notices.push(problem);
      else out.push(coupon!);
    }
    return out;
  }

  today(): string {
    return this.deps.now().toISOString().slice(0, 10);
  }

  private empty(settings: StoreSettingsView, notices: string[]): Snapshot {
    return {
      lines: [],
      currency: settings.currency,
      decimals: settings.priceDecimals,
      currencySymbol: settings.currencySymbol,
      totals: { subtotal: 0, discount: 0, shipping: 0, shippingTax: 0, tax: 0, total: 0 },
      needsShipping: false,
      needsPayment: false,
      coupons: [],
      itemCount: 0,
      rates: [],
      chosenRate: '',
      taxLines: [],
      pricesIncludeTax: settings.pricesIncludeTax,
      hasSubscription: false,
      urls: { cart: settings.pages.cart, checkout: settings.pages.checkout, shop: settings.pages.shop },
      notices,
    };
  }
}
