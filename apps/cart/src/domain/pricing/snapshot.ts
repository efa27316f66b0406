import type { QuoteRate, QuoteResult, StockInfo, SubscriptionSchedule } from '../ports';

/** A priced cart line (amounts in minor units of the store currency). */
export interface PricedLine {
  itemKey: string;
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  image: string;
  quantity: number;
  unit: number;
  subtotal: number;
  discount: number;
  /** Units a bogo coupon made free (included in `discount`), and that coupon's code. */
  bogoFreeUnits: number;
  bogoCoupon: string;
  tax: number;
  sku: string;
  shippingRequired: boolean;
  downloadable: boolean;
  priceType: string;
  subscription?: SubscriptionSchedule;
  stock: StockInfo;
}

export interface AppliedCouponView {
  code: string;
  discount: number;
  freeShipping: boolean;
}

/** The cart snapshot of spec 2.1, plus what checkout, mini cart and fragments render. */
export interface Snapshot {
  lines: PricedLine[];
  currency: string;
  decimals: number;
  currencySymbol: string;
  totals: { subtotal: number; discount: number; shipping: number; shippingTax: number; tax: number; total: number };
  needsShipping: boolean;
  needsPayment: boolean;
  coupons: AppliedCouponView[];
  itemCount: number;
  rates: QuoteRate[];
  chosenRate: string;
  taxLines: QuoteResult['taxLines'];
  pricesIncludeTax: boolean;
  hasSubscription: boolean;
  urls: { cart: string; checkout: string; shop: string };
  notices: string[];
}

/** The totals a customer sees; `refresh` compares these. */
export function totalsKey(s: Snapshot): string {
  const t = s.totals;
  return [t.subtotal, t.discount, t.shipping, t.tax, t.total].join('|');
}
