import type { Address } from '../../persistence/order-records';

// The order record lives in persistence/order-records.ts; the domain's rules use it from here.
export type {
  Address,
  MetaEntry,
  LineItem,
  ShippingLine,
  CouponLine,
  TaxLine,
  Order,
  OrderContent,
  NewOrder,
  OrderSort,
  OrderListQuery,
  OrderPage,
  OrderSummary,
  StatusChange,
  SubscriptionTerms,
} from '../../persistence/order-records';

export const emptyAddress = (): Address => ({
  firstName: '',
  lastName: '',
  company: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  postcode: '',
  country: '',
  email: '',
  phone: '',
});

/** A line to add, as an admin names it. */
export interface LineInput {
  priceId: number;
  productId: number;
  variationId: number;
  quantity: number;
  metaJson: string;
}
