/** What the place-order saga asks to redeem (RedeemCoupons). */
export interface RedemptionRequest {
  redemptionKey: string;
  orderId: number;
  customerId: number;
  email: string;
  codes: string[];
  reservationId?: string;
}

export type RedemptionStatus = 'active' | 'released';

/** A redemption row as the domain sees it. */
export interface RedemptionRecord {
  couponId: number;
  code: string;
  status: RedemptionStatus;
}

/** A coupon as a redemption needs it (looked up by lower-cased code). */
export interface RedeemableCoupon {
  id: number;
  code: string;
  status: string;
}

/** Who a per-user limit counts: the customer id, or the (lower-cased) email of a guest. */
export interface RedemptionHolder {
  customerId: number;
  email: string;
}

/** Which redemptions a release gives back: by key, by order id, or by the order's reservation id. */
export interface RedemptionSelector {
  redemptionKey?: string;
  orderId?: number;
  reservationId?: string;
  /** Only uses made before this moment (an order event releases what the order held when it happened). */
  madeBefore?: Date;
}
