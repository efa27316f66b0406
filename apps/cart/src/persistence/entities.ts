import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A cart: a guest's (found by the keyed hash of its token) or a customer's (one per customer). */
export const Cart = defineEntity({
  name: 'Cart',
  tableName: 'carts',
  indexes: [{ name: 'carts_guest_updated_idx', properties: ['updatedAt'] }],
  uniques: [
    { name: 'carts_token_hash_key', properties: ['tokenHash'] },
    { name: 'carts_customer_id_key', properties: ['customerId'] },
  ],
  properties: {
    id: p.string().length(36).primary(),
    tokenHash: p.string().length(64).nullable(),
    customerId: p.integer().nullable(),
    /** Checkout field values pushed so far (billing_*, shipping_*, shipping_method, notes, consents). */
    fields: p.json<Record<string, string>>(),
    /** Applied coupon codes, lower-cased, in application order. */
    coupons: p.json<string[]>(),
    /** Bumped by every change of the contents and by every failed checkout (derives checkout keys). */
    revision: p.integer().default(0),
    draftOrderId: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Cart = InferEntity<typeof Cart>;

export const CartLine = defineEntity({
  name: 'CartLine',
  tableName: 'cart_lines',
  properties: {
    cartId: p.string().length(36).primary(),
    itemKey: p.string().length(32).primary(),
    productId: p.integer(),
    priceId: p.integer(),
    variationId: p.integer(),
    quantity: p.integer(),
    position: p.integer(),
  },
});
export type CartLine = InferEntity<typeof CartLine>;

/** The place-order / pay-order saga log: one row per checkout attempt, found by its checkout key. */
export const Checkout = defineEntity({
  name: 'Checkout',
  tableName: 'checkouts',
  indexes: [
    { name: 'checkouts_status_updated_idx', properties: ['status', 'updatedAt'] },
    // An order's placements, newest first (findCheckoutByOrder).
    {
      name: 'checkouts_place_order_idx',
      expression: `create index "checkouts_place_order_idx" on "cart"."checkouts" ("order_id", "created_at" desc) where "kind" = 'place'`,
    },
    // Checkouts waiting on an action step, by order: every order_paid and order_failed asks.
    {
      name: 'checkouts_action_order_idx',
      expression: `create index "checkouts_action_order_idx" on "cart"."checkouts" ("order_id") where "status" = 'action'`,
    },
  ],
  uniques: [
    { name: 'checkouts_checkout_key_key', properties: ['checkoutKey'] },
    // One placement of a cart revision (running, awaiting its action step, or done), one running payment of an order (0004).
    {
      name: 'checkouts_placement_of_cart',
      expression: `create unique index "checkouts_placement_of_cart" on "cart"."checkouts" ("cart_id", "cart_revision") where "kind" = 'place' and "status" in ('open', 'action', 'succeeded')`,
    },
    {
      name: 'checkouts_open_payment_of_order',
      expression: `create unique index "checkouts_open_payment_of_order" on "cart"."checkouts" ("order_id") where "kind" = 'pay' and "status" = 'open'`,
    },
  ],
  properties: {
    id: p.string().length(36).primary(),
    checkoutKey: p.string().length(64),
    /** place | pay */
    kind: p.string().length(10),
    cartId: p.string().length(36).nullable(),
    cartRevision: p.integer().default(0),
    customerId: p.integer().default(0),
    requestHash: p.string().length(64),
    /** open | succeeded | failed | action */
    status: p.string().length(12),
    step: p.string().length(24),
    paymentMethod: p.string().length(64),
    orderId: p.integer().default(0),
    orderKey: p.string().length(64).default(''),
    /** The computed order, amounts, codes: everything a recovery needs (never card data). */
    plan: p.json<Record<string, unknown>>(),
    /** The REST result (or error) of a finished checkout, replayed for its key. */
    outcome: p.json<Record<string, unknown>>().nullable(),
    lockedUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Checkout = InferEntity<typeof Checkout>;

/** The saga log: a row written before each step runs. */
export const CheckoutStep = defineEntity({
  name: 'CheckoutStep',
  tableName: 'checkout_steps',
  properties: {
    checkoutId: p.string().length(36).primary(),
    seq: p.integer().primary().autoincrement(false),
    step: p.string().length(24),
    note: p.text().default(''),
    at: p.datetime(),
  },
});
export type CheckoutStep = InferEntity<typeof CheckoutStep>;

export const entities = [Cart, CartLine, Checkout, CheckoutStep];
