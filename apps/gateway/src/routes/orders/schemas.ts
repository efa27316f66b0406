import { Type, type Static } from 'typebox';
import { invalidParams } from '@storefront/errors';
import type { orders } from '@storefront/proto/orders';
import { AddressPatch, Id, MAX_ID } from '../../http/schemas';
import { ORDER_STATUSES } from '../../resources/order';
import { protoAddress } from '../../resources/address';

export const OrderStatus = Type.Unsafe<string>({ type: 'string', enum: [...ORDER_STATUSES], description: 'Order status slug.' });

const MetaInput = Type.Array(
  Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }), value: Type.Unknown() }),
  { maxItems: 100, description: 'Key/value pairs (upserted by key).' },
);

export const LineItemBody = Type.Object(
  {
    price_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'The price sold (or product_id).' })),
    product_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Sold at its first price when price_id is absent.' })),
    variation_id: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    meta_data: Type.Optional(MetaInput),
  },
  { additionalProperties: false },
);
export type LineItemFields = Static<typeof LineItemBody>;

const writable = {
  status: OrderStatus,
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
  customer_id: Type.Integer({ minimum: 0, maximum: MAX_ID }),
  payment_method: Type.String({ maxLength: 100 }),
  payment_method_title: Type.String({ maxLength: 200 }),
  transaction_id: Type.String({ maxLength: 200 }),
  customer_note: Type.String({ maxLength: 10_000 }),
  billing: AddressPatch,
  shipping: AddressPatch,
  line_items: Type.Array(LineItemBody, { maxItems: 100 }),
  meta_data: MetaInput,
  set_paid: Type.Boolean({ description: 'Mark the order paid (runs the paid transition).' }),
  coupon_lines: Type.Unknown({
    description: 'Not accepted (400 rest_invalid_param): coupons are applied through checkout (docs/decisions.md, admin orders and coupons).',
  }),
};

export const CreateOrderBody = Type.Partial(
  Type.Object({ ...writable, id: Type.Unknown({ description: 'Not allowed: orders are created without an id.' }) }),
  { additionalProperties: false },
);
export const UpdateOrderBody = Type.Partial(
  Type.Object({ ...writable, reason: Type.String({ maxLength: 1000, description: 'Recorded with a refund.' }) }),
  { additionalProperties: false },
);
export type CreateOrderFields = Static<typeof CreateOrderBody>;
export type UpdateOrderFields = Static<typeof UpdateOrderBody>;

export const ItemParams = Type.Object({ id: Id(), item_id: Id() });
export const RemoveItemsBody = Type.Object(
  { item_ids: Type.Array(Id(), { minItems: 1, maxItems: 100, description: 'Line item ids to remove.' }) },
  { additionalProperties: false },
);
export const UpdateItemBody = Type.Object(
  {
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    meta_data: Type.Optional(MetaInput),
  },
  { additionalProperties: false },
);

/** `status=a,b`, `status[]=a&status[]=b` or `status=a&status=b` (the validation hook makes each a list). */
export const StatusList = Type.Array(Type.String({ maxLength: 400 }), {
  maxItems: 20,
  description: `Statuses (${ORDER_STATUSES.join(', ')}): comma-separated or repeated.`,
});

/** ['a', 'b,c'] -> ['a', 'b', 'c']; an unknown name is 400 rest_invalid_param. */
export function parseStatuses(value: string[] | string | undefined): string[] {
  if (!value) return [];
  const names = ([] as string[]).concat(value).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !(ORDER_STATUSES as readonly string[]).includes(n));
  if (bad.length) throw invalidParams({ status: `Unknown status: ${bad.join(', ')}. One of ${ORDER_STATUSES.join(', ')}.` });
  return names;
}

type RestAddressPatch = Static<typeof AddressPatch>;

export function addressInput(a: RestAddressPatch | undefined): orders.OrderAddress | undefined {
  return a ? protoAddress(a) : undefined;
}

export function lineInput(l: LineItemFields): orders.LineItemInput {
  return {
    priceId: l.price_id ?? 0,
    productId: l.product_id ?? 0,
    variationId: l.variation_id ?? 0,
    quantity: l.quantity ?? 1,
    metaJson: l.meta_data ? JSON.stringify(l.meta_data) : '',
  };
}

export function metaInput(list: Array<{ key: string; value?: unknown }> | undefined): orders.OrderMetaInput[] {
  return (list ?? []).map((m) => ({ key: m.key, valueJson: JSON.stringify(m.value ?? null) }));
}
