import type { Actor } from './actor';
import type { Address, NewOrder, SubscriptionSchedule } from '../persistence/checkout-record';

// The order record the saga stores is persistence's type; the orders port takes the same shape.
export type { Address, NewOrder, SubscriptionSchedule };

/** What the cart needs of other services; grpc/ implements these over gRPC. */

export interface StockInfo {
  manageStock: boolean;
  stockQuantity: number | null;
  stockStatus: string;
  backordersAllowed: boolean;
}

export interface Purchasable {
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  image: string;
  unitAmount: string;
  currency: string;
  priceType: string;
  /** Set for a subscription price. */
  subscription?: SubscriptionSchedule;
  shippingRequired: boolean;
  downloadable: boolean;
  sku: string;
  stock: StockInfo;
}

export interface LineFailure {
  code: string;
  status: number;
  message: string;
}

export type LookupResult = { purchasable: Purchasable } | { error: LineFailure };

export interface PurchasableRef {
  priceId: number;
  productId: number;
  variationId: number;
}

export interface CouponRecord {
  id: number;
  code: string;
  discountType: string;
  amount: string;
  usageLimit?: number;
  usageLimitPerUser?: number;
  usageCount: number;
  allowedProductIds: number[];
  allowedPriceIds: number[];
  allowedCustomerIds: number[];
  excludedProductIds: number[];
  minimumAmount?: string;
  maximumAmount?: string;
  expiryDate?: string;
  individualUse: boolean;
  freeShipping: boolean;
  /** bogo coupons: buy this many units of an eligible line, get the next `bogoGetQuantity` free (0 reads as 1). */
  bogoBuyQuantity: number;
  bogoGetQuantity: number;
  /** Uses by the customer (or guest email) it was looked up for; counted only under a per-user limit. */
  holderUses: number;
}

/** Whom a coupon lookup counts uses for: the customer, or a guest's billing email. */
export interface CouponHolder {
  customerId: number;
  email: string;
}

export interface StockLine {
  productId: number;
  variationId: number;
  quantity: number;
}

export interface CatalogPort {
  purchasables(refs: PurchasableRef[]): Promise<LookupResult[]>;
  findCoupon(code: string, holder: CouponHolder): Promise<CouponRecord | undefined>;
  reserveStock(reservationId: string, lines: StockLine[], ttlSeconds: number): Promise<void>;
  /** A failed order paid again: takes its released reservation's units again, checked (404 when it never held stock). */
  renewReservation(reservationId: string, ttlSeconds: number): Promise<void>;
  commitReservation(reservationId: string): Promise<void>;
  releaseReservation(reservationId: string, reason: string): Promise<void>;
  /** `reservationId`: the checkout's (its saga id), which its order carries, so the order's events release the uses. */
  redeemCoupons(input: { key: string; orderId: number; customerId: number; email: string; codes: string[]; reservationId: string }): Promise<void>;
  releaseCoupons(key: string): Promise<void>;
}

export interface QuoteInput {
  destination: { country: string; state: string; postcode: string; city: string };
  /** `subtotal`: the line before discounts (its tax: totals.itemsSubtotalTax). */
  lines: { key: string; amount: string; subtotal: string; quantity: number; shippingRequired: boolean }[];
  couponFreeShipping: boolean;
  pricesIncludeTax: boolean;
  chosenRateId: string;
}

export interface QuoteRate {
  id: string;
  methodId: string;
  instanceId: number;
  label: string;
  cost: string;
  tax: string;
}

export interface QuoteResult {
  needsShipping: boolean;
  rates: QuoteRate[];
  chosenRateId: string;
  lineTaxes: Map<string, string>;
  taxLines: { rateId: number; label: string; compound: boolean; rate: string; taxTotal: string; shippingTaxTotal: string }[];
  totals: { itemsTotal: string; itemsTax: string; itemsSubtotalTax: string; shippingTotal: string; shippingTax: string; taxTotal: string; total: string };
}

export interface QuotePort {
  quote(input: QuoteInput): Promise<QuoteResult>;
}

/** The state field of a country's addresses (GET /checkout/states): its states, when it uses a list. */
export interface StateField {
  label: string;
  required: boolean;
  states: { code: string; name: string }[];
}

export interface RegionsPort {
  /** null for a country nobody knows (the quote refuses it) or while fulfillment is not configured. */
  stateField(country: string): Promise<StateField | null>;
}

export interface StoreSettingsView {
  currency: string;
  pricesIncludeTax: boolean;
  siteUrl: string;
  storeName: string;
  logoUrl: string;
  currencySymbol: string;
  priceDecimals: number;
  placeOrderLabel: string;
  pages: { cart: string; checkout: string; shop: string; terms: string };
}

export interface SettingsPort {
  store(): Promise<StoreSettingsView>;
}

export interface GatewayInfo {
  id: string;
  title: string;
  description: string;
  publishableKey: string;
  hasFields: boolean;
  supportsIntents: boolean;
  icon: string;
}

export interface PaymentOutcome {
  outcome: string;
  transactionId: string;
  redirectUrl: string;
  intentId: string;
  clientSecret: string;
  declineReason: string;
  message: string;
  gatewayTitle: string;
}

/**
 * The payments call ran out of time: the charge may have happened (or may
 * still happen), unlike "unreachable" (503 shop_service_unavailable), where
 * nothing was sent. The saga keeps the order pending and settles it later.
 */
export const PAYMENT_OUTCOME_UNKNOWN = 'shop_payment_outcome_unknown';

export interface PaymentsPort {
  availableGateways(
    input: { amount: string; currency: string; hasSubscription: boolean; customerId: number; shippingMethod?: string },
    actor: Actor,
  ): Promise<GatewayInfo[]>;
  /** The payment payload as the gateway will read it (shape, the payer's own saved token); charges nothing. */
  validatePayment(input: { gatewayId: string; payloadJson: string; customerId: number }, actor: Actor): Promise<void>;
  processPayment(
    input: {
      orderId: number;
      orderKey: string;
      gatewayId: string;
      amount: string;
      currency: string;
      customerId: number;
      payloadJson: string;
      idempotencyKey: string;
      clientIp: string;
      returnUrl: string;
      hasSubscription: boolean;
      /** Recovery: the attempt under `idempotencyKey` decides, whatever payload it ran with (none is stored). */
      settleByKey?: boolean;
    },
    actor: Actor,
  ): Promise<PaymentOutcome>;
  createIntent(
    input: { gatewayId: string; orderId: number; amount: string; currency: string; customerId: number; returnUrl: string },
    actor: Actor,
  ): Promise<{ clientSecret: string; intentId: string; redirectUrl: string; requiresAction: boolean }>;
}

export interface OrderView {
  id: number;
  status: string;
  paidStatus: string;
  orderKey: string;
  currency: string;
  customerId: number;
  total: string;
  paymentMethod: string;
  needsPayment: boolean;
  reservationId: string;
  couponCodes: string[];
  hasSubscription: boolean;
  billingEmail: string;
}

export interface OrdersPort {
  createOrder(order: NewOrder, actor: Actor): Promise<OrderView>;
  recordPaymentResult(
    input: { orderId: number; outcome: string; transactionId: string; paymentMethod: string; paymentMethodTitle: string; message: string },
    actor: Actor,
  ): Promise<OrderView>;
  getOrderForPayment(orderId: number, orderKey: string, actor: Actor): Promise<OrderView>;
}
