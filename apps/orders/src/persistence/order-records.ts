// The order record as the repository stores and returns it (and the domain
// works on). Amounts are integer minor units. Persistence owns these shapes so
// it never imports the domain; the domain re-exports them.

export const ORDER_STATUSES = [
  'checkout_draft',
  'pending_payment',
  'processing',
  'on_hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAID_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaidStatus = (typeof PAID_STATUSES)[number];

export interface Address {
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email: string;
  phone: string;
}

export interface MetaEntry {
  id: number;
  key: string;
  /** JSON-encoded value. */
  valueJson: string;
}

export interface LineItem {
  id: number;
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  quantity: number;
  price: number;
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  downloadable: boolean;
  shippingRequired: boolean;
  sku: string;
  metaData: MetaEntry[];
  /** Set when the line was bought at a subscription price. */
  subscription?: SubscriptionTerms | null;
}

/** A subscription price's billing schedule (stored on the line as jsonb in this shape). */
export interface SubscriptionTerms {
  billingPeriod: string;
  billingInterval: number;
  trialDays: number;
}

export interface ShippingLine {
  id: number;
  methodId: string;
  instanceId: number;
  rateId: string;
  label: string;
  total: number;
  totalTax: number;
}

export interface CouponLine {
  id: number;
  code: string;
  discount: number;
}

export interface TaxLine {
  id: number;
  rateId: number;
  label: string;
  compound: boolean;
  /** "20.0000" */
  rate: string;
  taxTotal: number;
  shippingTaxTotal: number;
}

export interface Order {
  id: number;
  status: OrderStatus;
  paidStatus: PaidStatus;
  orderKey: string;
  checkoutKey: string | null;
  currency: string;
  customerId: number;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  customerNote: string;
  billing: Address;
  shipping: Address;
  lineItems: LineItem[];
  shippingLines: ShippingLine[];
  couponLines: CouponLine[];
  taxLines: TaxLine[];
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  totalTax: number;
  total: number;
  refundedTotal: number;
  dateCreated: Date;
  dateModified: Date;
  datePaid: Date | null;
  dateCompleted: Date | null;
  metaData: MetaEntry[];
  reservationId: string;
  createdVia: string;
  couponCodes: string[];
  itemCount: number;
}

/** Lines and totals of an order (what pricing produces and the repository stores). */
export interface OrderContent {
  /** A line with an id keeps it; lines without one are new. */
  lineItems: Array<Omit<LineItem, 'id'> & { id?: number }>;
  shippingLines: Omit<ShippingLine, 'id'>[];
  couponLines: Omit<CouponLine, 'id'>[];
  taxLines: Omit<TaxLine, 'id'>[];
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  totalTax: number;
  total: number;
}

/** A new order row (the repository assigns id and dates). */
export interface NewOrder extends OrderContent {
  status: OrderStatus;
  paidStatus: PaidStatus;
  orderKey: string;
  checkoutKey: string | null;
  currency: string;
  customerId: number;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  customerNote: string;
  billing: Address;
  shipping: Address;
  metaData: Omit<MetaEntry, 'id'>[];
  reservationId: string;
  createdVia: string;
  couponCodes: string[];
}

export type OrderSort = 'id' | 'date' | 'date_modified' | 'total' | 'status';

export interface OrderListQuery {
  page: number;
  perPage: number;
  offset: number;
  statuses: OrderStatus[];
  /** Statuses never listed (drafts on the customer's list). */
  excludeStatuses: OrderStatus[];
  /** One customer's orders (0: guests'); null: everyone's. */
  customerId: number | null;
  after: Date | null;
  /** Inclusive: the repository compares date_created <= before. */
  before: Date | null;
  search: string;
  orderby: OrderSort;
  order: 'asc' | 'desc';
}

/** What an order list summary shows (the customer's list): no lines, addresses or meta. */
export type OrderSummary = Pick<
  Order,
  | 'id'
  | 'status'
  | 'paidStatus'
  | 'currency'
  | 'customerId'
  | 'total'
  | 'itemCount'
  | 'dateCreated'
  | 'dateModified'
  | 'datePaid'
  | 'dateCompleted'
>;

/** A page of a list and the number of orders matching its filters. */
export interface OrderPage<T = Order> {
  orders: T[];
  total: number;
}

/** One row of the status history: who, when, from, to. */
export interface StatusChange {
  orderId: number;
  fromStatus: OrderStatus | '';
  toStatus: OrderStatus;
  byUserId: number;
  cause: string;
  note: string;
  changedAt: Date;
}
