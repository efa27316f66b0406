import type { NewOrder } from '../ports';

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
  /** The gateway outcome, once known. */
  payment?: { outcome: string; transactionId: string; redirectUrl: string; intentId: string; clientSecret: string; message: string; gatewayTitle: string };
  /** Set once the coupons were redeemed (so compensation gives them back). */
  couponsRedeemed?: boolean;
  reserved?: boolean;
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
