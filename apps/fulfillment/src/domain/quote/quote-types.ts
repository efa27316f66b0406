import type { Destination } from './destination';
import type { TaxRounding } from './rounding';

export interface QuoteLineInput {
  key: string;
  /** Minor units, after discounts; includes tax when pricesIncludeTax. */
  amount: bigint;
  /** Minor units, before discounts (same terms); undefined = amount. */
  subtotal?: bigint;
  quantity: number;
  shippingRequired: boolean;
  /** standard | reduced-rate | zero-rate */
  taxClass: string;
}

export interface QuoteInput {
  destination: Destination;
  lines: QuoteLineInput[];
  couponFreeShipping: boolean;
  /** Minor units, compared with free shipping's min_amount. */
  subtotal: bigint;
  pricesIncludeTax: boolean;
  chosenRateId: string;
}

export interface RateAmount {
  rateId: number;
  amount: bigint;
}

export interface QuotedRate {
  id: string;
  methodId: string;
  instanceId: number;
  label: string;
  cost: bigint;
  tax: bigint;
  taxes: RateAmount[];
}

export interface TaxLine {
  rateId: number;
  label: string;
  compound: boolean;
  rate: string;
  taxTotal: bigint;
  shippingTaxTotal: bigint;
}

export interface QuoteResult {
  needsShipping: boolean;
  zone: { id: number; name: string; order: number };
  rates: QuotedRate[];
  chosenRateId: string;
  lines: Array<{ key: string; tax: bigint; taxes: RateAmount[] }>;
  taxLines: TaxLine[];
  totals: {
    itemsTotal: bigint;
    itemsTax: bigint;
    /** The tax of the lines' subtotals (before discounts). */
    itemsSubtotalTax: bigint;
    shippingTotal: bigint;
    shippingTax: bigint;
    taxTotal: bigint;
    total: bigint;
  };
  rounding: TaxRounding;
}
