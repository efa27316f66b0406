import { toMinor, fromMinor } from '@storefront/money';
import type { Actor } from '../actor';
import type { CartRecord, LineRecord } from '../../persistence/cart-record';
import { couponProblem } from '../coupons/coupon-rules';
import type { CartDeps } from '../deps';
import type { CouponHolder, CouponRecord, LookupResult, PurchasableRef, QuoteInput, QuoteResult, StoreSettingsView } from '../ports';
import { destinationFieldError, destinationOf } from './destination';
import { computeDiscounts } from './discounts';
import type { PricedLine, Snapshot } from './snapshot';
import { SnapshotCache } from './snapshot-cache';

export type Lookups = Map<string, LookupResult>;

/** Lines per catalog lookup (catalog's own limit per call). */
const LOOKUP_BATCH = 100;

export const refKey = (r: { priceId: number; productId?: number; variationId: number }) => `${r.priceId}:${r.variationId}`;

export interface PriceOptions {
  /** Lookups already made in this request (reused; missing lines are looked up in one call). */
  lookups?: Lookups;
  /** Field values to price against instead of the stored ones (place: the submitted address). */
  fields?: Record<string, string>;
  /** Coupons already fetched in this request. */
  coupons?: Map<string, CouponRecord | undefined>;
  /**
   * Display only (cart routes): the quote may come from the memo of identical
   * quotes (same invalidation as the snapshots). Checkout and place never set it.
   */
  memoQuote?: boolean;
}

/**
 * Prices a cart: one batched catalog lookup for every line, the applied
 * coupons re-checked and spread over the lines, then one quote (shipping
 * rates and every tax) from fulfillment.
 */
export class CartPricer {
  readonly snapshots: SnapshotCache;
  private readonly quotes = new Map<string, { result: QuoteResult; at: number; generation: number }>();

  constructor(private readonly deps: CartDeps) {
    this.snapshots = new SnapshotCache(deps.config.CART_SNAPSHOT_TTL_MS);
  }

  /**
   * The snapshot a cart read shows: the cached one while the cart, the caller
   * and the data behind it are unchanged (see SnapshotCache), else priced now.
   */
  async displayed(cart: CartRecord, actor: Actor): Promise<Snapshot> {
    if (!cart.id || !this.snapshots.enabled) return this.price(cart, actor);
    const key = SnapshotCache.keyOf(cart, actor, this.today());
    const hit = this.snapshots.get(cart.id, key, Date.now());
    if (hit) return hit;
    const generation = this.snapshots.begin();
    const snapshot = await this.price(cart, actor, { memoQuote: true });
    this.snapshots.set(cart.id, key, snapshot, Date.now(), generation);
    return snapshot;
  }

  /** Keeps the snapshot a change just priced (its lookups were fresh) for the reads that follow. */
  remember(cart: CartRecord, actor: Actor, snapshot: Snapshot, generation: number): void {
    if (cart.id) this.snapshots.set(cart.id, SnapshotCache.keyOf(cart, actor, this.today()), snapshot, Date.now(), generation);
  }

  async lookup(refs: PurchasableRef[], known: Lookups = new Map()): Promise<Lookups> {
    const missing = refs.filter((r) => !known.has(refKey(r)));
    if (!missing.length) return known;
    const unique = [...new Map(missing.map((r) => [refKey(r), r])).values()];
    // Catalog answers at most LOOKUP_BATCH lines a call; a larger cart (a guest cart merged at login) takes several.
    const batches: PurchasableRef[][] = [];
    for (let i = 0; i < unique.length; i += LOOKUP_BATCH) batches.push(unique.slice(i, i + LOOKUP_BATCH));
    const results = (await Promise.all(batches.map((batch) => this.deps.catalog.purchasables(batch)))).flat();
    const out = new Map(known);
    unique.forEach((r, i) => out.set(refKey(r), results[i]));
    return out;
  }

  async fetchCoupons(codes: string[], holder: CouponHolder, known = new Map<string, CouponRecord | undefined>()) {
    const missing = codes.filter((c) => !known.has(c));
    const found = await Promise.all(missing.map((c) => this.deps.catalog.findCoupon(c, holder)));
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
      cart.coupons.length
        ? this.fetchCoupons(cart.coupons, couponHolder(actor, fields), options.coupons)
        : Promise.resolve(new Map<string, CouponRecord | undefined>()),
    ]);
    const notices: string[] = [];
    const lines = this.pricedLines(cart.lines, lookups, decimals, notices);
    if (!lines.length) return this.empty(settings, notices);
    const subtotal = lines.reduce((a, l) => a + l.subtotal, 0);
    const coupons = this.validCoupons(cart.coupons, couponMap, { actor, subtotal, lines, decimals, notices });
    const discounts = computeDiscounts(lines, coupons, decimals);
    for (const d of discounts) {
      for (const [key, v] of d.byLine) lines.find((l) => l.itemKey === key)!.discount += v;
      for (const [key, units] of d.freeUnits) {
        const line = lines.find((l) => l.itemKey === key)!;
        // Two bogo coupons on one line: the larger reward counts (discounts cap the line at zero anyway).
        if (units > line.bogoFreeUnits) Object.assign(line, { bogoFreeUnits: units, bogoCoupon: d.code });
      }
    }

    const quote = await this.quote(
      {
        destination: destinationOf(fields),
        lines: lines.map((l) => ({
          key: l.itemKey,
          amount: fromMinor(l.subtotal - l.discount, decimals),
          subtotal: fromMinor(l.subtotal, decimals),
          quantity: l.quantity,
          shippingRequired: l.shippingRequired,
        })),
        couponFreeShipping: discounts.some((d) => d.freeShipping),
        pricesIncludeTax: settings.pricesIncludeTax,
        chosenRateId: fields.shipping_method ?? '',
      },
      options.memoQuote === true,
    ).catch((err: unknown) => {
      throw destinationFieldError(err, fields) ?? err;
    });
    for (const l of lines) l.tax = toMinor(quote.lineTaxes.get(l.itemKey) ?? '0', decimals);
    const total = toMinor(quote.totals.total, decimals);
    // Prices that include tax: subtotal and discount are net of the tax they contain (the subtotal's
    // before discounts, the discount's what it took off), as the host platform reports them, so the
    // subtotal depends on the lines only and total = subtotal - discount + shipping + tax (contract).
    const grossDiscount = lines.reduce((a, l) => a + l.discount, 0);
    const netSubtotal = subtotal - toMinor(quote.totals.itemsSubtotalTax, decimals);
    const netItems = subtotal - grossDiscount - toMinor(quote.totals.itemsTax, decimals);
    return {
      lines,
      currency: settings.currency,
      decimals,
      currencySymbol: settings.currencySymbol,
      totals: {
        subtotal: settings.pricesIncludeTax ? netSubtotal : subtotal,
        discount: settings.pricesIncludeTax ? netSubtotal - netItems : grossDiscount,
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

  /** A quote from fulfillment, or (display only) the memo of the same input, valid as long as the snapshots are. */
  private async quote(input: QuoteInput, memo: boolean): Promise<QuoteResult> {
    if (!memo || !this.snapshots.enabled) return this.deps.quotes.quote(input);
    const key = JSON.stringify(input);
    const now = Date.now();
    const hit = this.quotes.get(key);
    if (hit && hit.generation === this.snapshots.begin() && now - hit.at < this.deps.config.CART_SNAPSHOT_TTL_MS) return hit.result;
    const generation = this.snapshots.begin();
    const result = await this.deps.quotes.quote(input);
    if (generation === this.snapshots.begin()) {
      this.quotes.delete(key);
      this.quotes.set(key, { result, at: now, generation });
      if (this.quotes.size > 5_000) this.quotes.delete(this.quotes.keys().next().value!);
    }
    return result;
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
        bogoFreeUnits: 0,
        bogoCoupon: '',
        tax: 0,
        sku: p.sku,
        shippingRequired: p.shippingRequired,
        downloadable: p.downloadable,
        priceType: p.priceType,
        ...(p.subscription ? { subscription: p.subscription } : {}),
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
      if (problem) {
        ctx.notices.push(problem);
        continue;
      }
      // Individual use holds whatever put the coupons together (apply refuses it; a login merge or a
      // coupon made individual-use later does not): the first applied wins, the others give no discount.
      const exclusive = out.find((c) => c.individualUse) ?? (coupon!.individualUse ? out[0] : undefined);
      if (exclusive) ctx.notices.push(`Coupon "${code}" cannot be used together with coupon "${exclusive.code}".`);
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

/** Whose coupon uses count for a per-user limit: the customer and the billing email given (as catalog counts them at place). */
export function couponHolder(actor: Actor, fields: Record<string, string>): CouponHolder {
  return { customerId: actor.userId, email: (fields.billing_email ?? '').trim().toLowerCase() };
}
