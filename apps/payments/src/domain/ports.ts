import type { CallerContext } from '@storefront/grpc-client';

/** The order as payments needs it (orders' record, trimmed). */
export interface OrderForPayment {
  id: number;
  status: string;
  paidStatus: string;
  orderKey: string;
  currency: string;
  customerId: number;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  /** Decimal string. */
  total: string;
}

export interface PaymentResultInput {
  orderId: number;
  outcome: 'paid' | 'on_hold' | 'failed' | 'requires_action';
  transactionId: string;
  paymentMethod: string;
  paymentMethodTitle: string;
  message: string;
}

/** What payments asks of the orders service. */
export interface OrdersPort {
  recordPaymentResult(input: PaymentResultInput, caller: CallerContext): Promise<OrderForPayment>;
  /** The order when the caller may see it; throws 404 otherwise. */
  getOrderForPayment(orderId: number, orderKey: string, caller: CallerContext): Promise<OrderForPayment>;
}

/** Site options: the configured site URL (never request headers) and the store name. */
export interface SitePort {
  siteUrl(): Promise<string>;
  storeName(): Promise<string>;
}
