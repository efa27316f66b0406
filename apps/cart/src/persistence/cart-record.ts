/** A cart as stored: its lines, applied coupon codes and checkout fields. */
export interface LineRecord {
  itemKey: string;
  productId: number;
  priceId: number;
  variationId: number;
  quantity: number;
  position: number;
}

export interface CartRecord {
  id: string;
  customerId: number | null;
  fields: Record<string, string>;
  coupons: string[];
  revision: number;
  draftOrderId: number;
  lines: LineRecord[];
}

export function emptyCart(): CartRecord {
  return { id: '', customerId: null, fields: {}, coupons: [], revision: 0, draftOrderId: 0, lines: [] };
}
