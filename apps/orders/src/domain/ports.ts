import type { Address, SubscriptionTerms } from './orders/order-types';

// What the orders domain needs from other services, in its own terms. The
// gRPC adapters live in grpc/ports.ts.

export interface PurchasableRef {
  priceId: number;
  productId: number;
  variationId: number;
}

export interface Purchasable {
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  /** Minor units. */
  unitAmount: number;
  currency: string;
  shippingRequired: boolean;
  downloadable: boolean;
  sku: string;
  /** A subscription price's schedule; null for a one-time price. */
  subscription: SubscriptionTerms | null;
}

export type PurchasableResult = { ok: Purchasable } | { error: { code: string; status: number; message: string } };

export interface CatalogPort {
  /** One result per ref, in order. */
  getPurchasables(refs: PurchasableRef[]): Promise<PurchasableResult[]>;
  /** The product's title, whatever its status; null when the catalog has no such product. */
  productName(productId: number): Promise<string | null>;
  /** Takes the lines' units under `reservationId` (422 shop_stock_insufficient when the stock cannot cover them). */
  reserveStock(reservationId: string, lines: StockLine[], ttlSeconds: number): Promise<void>;
  /** An edited order's lines: its reservation holds exactly these, its held units following (422 shop_stock_insufficient). */
  adjustReservation(reservationId: string, lines: StockLine[]): Promise<void>;
  /** Keeps a reservation's units for good (an order on hold or paid). */
  commitReservation(reservationId: string): Promise<void>;
  /** Gives a reservation's units back (its order was never stored). */
  releaseReservation(reservationId: string, reason: string): Promise<void>;
}

export interface StockLine {
  productId: number;
  variationId: number;
  quantity: number;
}

export interface QuoteLineInput {
  key: string;
  /** Minor units (line total after discounts). */
  amount: number;
  quantity: number;
  shippingRequired: boolean;
}

export interface QuoteOutcome {
  lineTax: Map<string, number>;
  shipping: { methodId: string; instanceId: number; rateId: string; label: string; cost: number; tax: number } | null;
  taxLines: Array<{ rateId: number; label: string; compound: boolean; rate: string; taxTotal: number; shippingTaxTotal: number }>;
  shippingTotal: number;
  taxTotal: number;
}

export interface QuotePort {
  quote(destination: Address, lines: QuoteLineInput[]): Promise<QuoteOutcome>;
}

export interface RefundRequest {
  orderId: number;
  gatewayId: string;
  transactionId: string;
  /** Minor units. */
  amount: number;
  currency: string;
  reason: string;
  /** The same key refunds once (payments answers the first refund again). */
  idempotencyKey: string;
}

export interface PaymentsPort {
  /** The refund id; throws 422 shop_order_refund_unsupported when the gateway cannot refund. */
  refund(request: RefundRequest): Promise<string>;
}

export interface CustomersPort {
  /** Which of `ids` are existing customer accounts. */
  existingCustomerIds(ids: number[]): Promise<number[]>;
}
