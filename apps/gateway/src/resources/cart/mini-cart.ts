import { Type } from 'typebox';
import type { cart } from '@storefront/proto/cart';
import { itemsHtml, subtotalsHtml } from './html';
import { CartLineSchema, lineResource } from './snapshot';

export const MiniCartSchema = Type.Object(
  {
    is_empty: Type.Boolean(),
    subtotal: Type.Number(),
    total: Type.Number(),
    tax: Type.Number(),
    taxes: Type.Array(Type.Object({ label: Type.String(), amount: Type.Number(), rate: Type.String() })),
    currency: Type.String(),
    cart_items_count: Type.Integer(),
    cart_items: Type.Array(CartLineSchema),
    cart_url: Type.String(),
    checkout_url: Type.String(),
    shop_url: Type.String(),
    cart_items_html: Type.Optional(Type.String({ description: 'Present when render is true.' })),
  },
  { title: 'MiniCart' },
);

export function miniCartResource(s: cart.CartSnapshot | undefined, render: boolean) {
  const items = s?.items ?? [];
  return {
    is_empty: items.length === 0,
    subtotal: Number(s?.totals?.subtotal || 0),
    total: Number(s?.totals?.total || 0),
    tax: Number(s?.totals?.tax || 0),
    taxes: (s?.taxLines ?? []).map((t) => ({
      label: t.label,
      amount: Math.round((Number(t.taxTotal || 0) + Number(t.shippingTaxTotal || 0)) * 100) / 100,
      rate: t.rate,
    })),
    currency: s?.currency ?? '',
    cart_items_count: s?.itemCount ?? 0,
    cart_items: items.map(lineResource),
    cart_url: s?.urls?.cart ?? '',
    checkout_url: s?.urls?.checkout ?? '',
    shop_url: s?.urls?.shop ?? '',
    ...(render ? { cart_items_html: `<div class="shop-mini-cart">${itemsHtml(s)}${items.length ? subtotalsHtml(s) : ''}</div>` } : {}),
  };
}
