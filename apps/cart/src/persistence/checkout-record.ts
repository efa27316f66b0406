export type CheckoutStatus = 'open' | 'succeeded' | 'failed' | 'action';

/** What REST shows for a gateway's result (spec 4.2 place / pay-order). */
export interface PaymentResultView {
  result: 'success';
  redirect: string;
  orderId: number;
  orderKey: string;
  outcome: string;
  status: string;
  paidStatus: string;
  requiresAction: boolean;
  intentId: string;
  clientSecret: string;
  transactionId: string;
  message: string;
  paymentMethod: string;
  total: string;
  currency: string;
}

export interface StoredError {
  code: string;
  status: number;
  message: string;
  data: Record<string, unknown>;
}

/** Everything the saga needs to finish after a restart; never card data. */
export interface CheckoutPlan {
  order?: NewOrder;
  amount: string;
  currency: string;
  email: string;
  customerId: number;
  gatewayTitle: string;
  hasSubscription: boolean;
  stockLines: { productId: number; variationId: number; quantity: number }[];
  couponCodes: string[];
  checkoutUrl: string;
  returnUrl: string;
  clientIp: string;
  /**
   * pay-order of a failed order: what its checkout took and its failure gave
   * back (the order's reservation, its coupon uses for its customer), taken
   * again before the gateway runs and given back if the payment fails.
   */
  retake?: { reservationId: string; customerId: number; email: string; couponCodes: string[] };
  /** The gateway outcome, once known. */
  payment?: { outcome: string; transactionId: string; redirectUrl: string; intentId: string; clientSecret: string; message: string; gatewayTitle: string };
}

export interface CheckoutRecord {
  id: string;
  checkoutKey: string;
  kind: 'place' | 'pay';
  cartId: string | null;
  cartRevision: number;
  customerId: number;
  requestHash: string;
  status: CheckoutStatus;
  step: string;
  paymentMethod: string;
  orderId: number;
  orderKey: string;
  plan: CheckoutPlan;
  outcome: { result?: PaymentResultView; error?: StoredError } | null;
  createdAt: Date;
}

/** A billing or shipping address as the order stores it. */
export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email: string;
  phone: string;
}

/** The order a checkout creates, stored in its plan so recovery can create it again. */
export interface NewOrder {
  checkoutKey: string;
  draftOrderId: number;
  status: 'pending_payment' | 'checkout_draft';
  customerId: number;
  currency: string;
  billing: Address;
  shipping: Address;
  customerNote: string;
  paymentMethod: string;
  paymentMethodTitle: string;
  reservationId: string;
  couponCodes: string[];
  lineItems: {
    productId: number;
    priceId: number;
    variationId: number;
    name: string;
    quantity: number;
    price: string;
    subtotal: string;
    discount: string;
    tax: string;
    total: string;
    downloadable: boolean;
    shippingRequired: boolean;
    sku: string;
    /** A subscription price's schedule (orders starts the subscription when the order is paid). */
    subscription?: SubscriptionSchedule;
  }[];
  shippingLines: { methodId: string; instanceId: number; rateId: string; label: string; total: string; totalTax: string }[];
  couponLines: { code: string; discount: string }[];
  taxLines: { rateId: number; label: string; compound: boolean; rate: string; taxTotal: string; shippingTaxTotal: string }[];
  subtotal: string;
  discountTotal: string;
  shippingTotal: string;
  totalTax: string;
  total: string;
}

/** A subscription price's billing schedule. */
export interface SubscriptionSchedule {
  billingPeriod: string;
  billingInterval: number;
  trialDays: number;
}
