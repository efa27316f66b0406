import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { PRODUCT_COUNT_TRIGGERS } from './product-counts';

// Tables of the catalog schema. Ids between tables are plain integer columns (no
// foreign keys): a product's rows are removed together by the domain, in one
// transaction, and stock movements outlive the product they describe (audit).

export type JsonObject = Record<string, unknown>;

/** Bumps the row's `version` on every update (product ETags; see migration 0003). */
function nextVersionTrigger(name: string) {
  return { name, timing: 'before' as const, events: ['update' as const], body: 'new.version := old.version + 1; return new;' };
}

export interface DownloadFile {
  id: string;
  name: string;
  file: string;
}

/** A product in the host platform's posts shape, plus its commerce fields. */
export const Product = defineEntity({
  name: 'Product',
  tableName: 'products',
  triggers: [nextVersionTrigger('products_next_version'), ...PRODUCT_COUNT_TRIGGERS],
  indexes: [
    {
      name: 'products_status_created_id_idx',
      expression: `create index "products_status_created_id_idx" on "catalog"."products" ("status", "created_at" desc, "id" desc)`,
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    slug: p.string().length(200).unique('products_slug_unique'),
    status: p.string().length(20),
    title: p.text().default(''),
    content: p.text().default(''),
    excerpt: p.text().default(''),
    authorId: p.integer().default(0),
    menuOrder: p.integer().default(0),
    createdAt: p.datetime(),
    modifiedAt: p.datetime(),
    meta: p.json<JsonObject>(),
    productType: p.string().length(20).default('simple'),
    sku: p.string().length(64).default(''),
    barcode: p.string().length(32).default(''),
    manageStock: p.boolean().default(false),
    stockStatus: p.string().length(20).default('instock'),
    backordersAllowed: p.boolean().default(false),
    hideStock: p.boolean().default(false),
    lowStockThreshold: p.integer().nullable(),
    shippingRequired: p.boolean().default(true),
    downloadable: p.boolean().default(false),
    downloads: p.json<DownloadFile[]>(),
    /** Downloads per granted file; -1: unlimited. */
    downloadLimit: p.integer().default(-1).onCreate(() => -1),
    /** Days after purchase a download works; -1: never expires. */
    downloadExpiry: p.integer().default(-1).onCreate(() => -1),
    bundleProductIds: p.json<number[]>(),
    images: p.json<string[]>(),
    /** Bumped by a trigger on every update (product ETags); never written by the application. */
    version: p.bigint('number').default(0),
  },
});
export type Product = InferEntity<typeof Product>;

/** A price of a product; its id is the `price_id` carts and coupons refer to. */
export const Price = defineEntity({
  name: 'Price',
  tableName: 'prices',
  indexes: [{ name: 'prices_product_idx', properties: ['productId', 'position'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    productId: p.integer(),
    position: p.integer().default(0),
    name: p.string().length(200).default(''),
    amount: p.decimal('string').precision(14).scale(2),
    compareAtAmount: p.decimal('string').precision(14).scale(2).nullable(),
    currency: p.string().length(3),
    type: p.string().length(20).default('onetime'),
    billingPeriod: p.string().length(10).default(''),
    billingInterval: p.integer().default(0),
    trialDays: p.integer().default(0),
  },
});
export type Price = InferEntity<typeof Price>;

/** A variation of a variable product. Its stock lives in `stock_levels` (one place to lock). */
export const Variation = defineEntity({
  name: 'Variation',
  tableName: 'variations',
  indexes: [{ name: 'variations_product_idx', properties: ['productId', 'position'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    productId: p.integer(),
    position: p.integer().default(0),
    // json, not jsonb: jsonb reorders keys, and attribute order is how names read ("Red, L").
    attributes: p.json<Record<string, string>>().columnType('json'),
    sku: p.string().length(64).default(''),
    barcode: p.string().length(32).default(''),
    /** 0: the product's first price. */
    priceId: p.integer().default(0),
    amount: p.decimal('string').precision(14).scale(2).nullable(),
    image: p.string().length(2048).default(''),
  },
});
export type Variation = InferEntity<typeof Variation>;

/** A product category or tag. */
export const Term = defineEntity({
  name: 'Term',
  tableName: 'terms',
  uniques: [{ name: 'terms_taxonomy_slug_unique', properties: ['taxonomy', 'slug'] }],
  indexes: [{ name: 'terms_taxonomy_parent_idx', properties: ['taxonomy', 'parent'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    taxonomy: p.string().length(40),
    name: p.string().length(200),
    slug: p.string().length(200),
    description: p.text().default(''),
    parent: p.integer().default(0),
    meta: p.json<JsonObject>(),
  },
});
export type Term = InferEntity<typeof Term>;

/** Products per status, split over 8 slots; kept by triggers (migration 0006), read for list totals. */
export const ProductCount = defineEntity({
  name: 'ProductCount',
  tableName: 'product_counts',
  properties: {
    status: p.string().length(20).primary(),
    slot: p.smallint().primary(),
    n: p.bigint('number'),
  },
});
export type ProductCount = InferEntity<typeof ProductCount>;

export const ProductTerm = defineEntity({
  name: 'ProductTerm',
  tableName: 'product_terms',
  indexes: [{ name: 'product_terms_term_idx', properties: ['termId'] }],
  properties: {
    productId: p.integer().primary().autoincrement(false),
    termId: p.integer().primary().autoincrement(false),
  },
});
export type ProductTerm = InferEntity<typeof ProductTerm>;

/** A coupon in the posts shape; its code is the title, unique case-insensitively among untrashed coupons. */
export const Coupon = defineEntity({
  name: 'Coupon',
  tableName: 'coupons',
  indexes: [
    { name: 'coupons_status_created_idx', properties: ['status', 'createdAt'] },
    {
      name: 'coupons_code_lower_unique',
      expression: `create unique index "coupons_code_lower_unique" on "catalog"."coupons" (lower("title")) where "status" <> 'trash'`,
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    slug: p.string().length(200),
    status: p.string().length(20),
    title: p.string().length(200),
    content: p.text().default(''),
    excerpt: p.text().default(''),
    authorId: p.integer().default(0),
    createdAt: p.datetime(),
    modifiedAt: p.datetime(),
    discountType: p.string().length(20).default('fixed_cart'),
    amount: p.decimal('string').precision(14).scale(2).default('0.00'),
    usageLimit: p.integer().nullable(),
    usageLimitPerUser: p.integer().nullable(),
    usageCount: p.integer().default(0),
    allowedProductIds: p.json<number[]>(),
    allowedPriceIds: p.json<number[]>(),
    allowedCustomerIds: p.json<number[]>(),
    excludedProductIds: p.json<number[]>(),
    minimumAmount: p.decimal('string').precision(14).scale(2).nullable(),
    maximumAmount: p.decimal('string').precision(14).scale(2).nullable(),
    expiryDate: p.date().nullable(),
    individualUse: p.boolean().default(false),
    freeShipping: p.boolean().default(false),
    bogoBuyQuantity: p.integer().default(0),
    bogoGetQuantity: p.integer().default(0),
    meta: p.json<JsonObject>(),
  },
});
export type Coupon = InferEntity<typeof Coupon>;

/** On-hand units of a product (variation_id 0) or of one variation; the row reservations lock. */
export const StockLevel = defineEntity({
  name: 'StockLevel',
  tableName: 'stock_levels',
  triggers: [nextVersionTrigger('stock_levels_next_version')],
  properties: {
    productId: p.integer().primary().autoincrement(false),
    variationId: p.integer().primary().autoincrement(false),
    quantity: p.integer().default(0),
    updatedAt: p.datetime(),
    /** Bumped by a trigger on every update (product ETags). */
    version: p.bigint('number').default(0),
  },
});
export type StockLevel = InferEntity<typeof StockLevel>;

/** One change of a level: who, when, from what to what, and why. */
export const StockMovement = defineEntity({
  name: 'StockMovement',
  tableName: 'stock_movements',
  indexes: [{ name: 'stock_movements_level_idx', properties: ['productId', 'variationId', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    productId: p.integer(),
    variationId: p.integer(),
    userId: p.integer().default(0),
    createdAt: p.datetime(),
    quantityBefore: p.integer(),
    quantityAfter: p.integer(),
    delta: p.integer(),
    reason: p.string().length(40),
    note: p.text().default(''),
    reservationId: p.string().length(100).nullable(),
  },
});
export type StockMovement = InferEntity<typeof StockMovement>;

/** Units held for a checkout until payment (committed) or failure/expiry (released/expired). */
export const Reservation = defineEntity({
  name: 'Reservation',
  tableName: 'reservations',
  indexes: [{ name: 'reservations_status_expires_idx', properties: ['status', 'expiresAt'] }],
  properties: {
    id: p.string().length(100).primary(),
    status: p.string().length(20),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    settledAt: p.datetime().nullable(),
    /** When a failed order's payment last took it again (renew): older order events leave it alone. */
    renewedAt: p.datetime().nullable(),
  },
});
export type Reservation = InferEntity<typeof Reservation>;

export const ReservationLine = defineEntity({
  name: 'ReservationLine',
  tableName: 'reservation_lines',
  properties: {
    reservationId: p.string().length(100).primary(),
    productId: p.integer().primary().autoincrement(false),
    variationId: p.integer().primary().autoincrement(false),
    quantity: p.integer(),
    /** Whether units were taken from a level (false for products that do not manage stock). */
    deducted: p.boolean().default(false),
  },
});
export type ReservationLine = InferEntity<typeof ReservationLine>;

/**
 * One use of a coupon by a checkout (the redemption key) while `active`;
 * `coupons.usage_count` counts the active ones. Released when the payment
 * fails or the order is cancelled.
 */
export const CouponRedemption = defineEntity({
  name: 'CouponRedemption',
  tableName: 'coupon_redemptions',
  uniques: [{ name: 'coupon_redemptions_key_coupon_unique', properties: ['redemptionKey', 'couponId'] }],
  indexes: [
    { name: 'coupon_redemptions_coupon_status_idx', properties: ['couponId', 'status'] },
    { name: 'coupon_redemptions_order_idx', properties: ['orderId'] },
    { name: 'coupon_redemptions_reservation_idx', properties: ['reservationId'] },
    {
      name: 'coupon_redemptions_customer_idx',
      expression: `create index "coupon_redemptions_customer_idx" on "catalog"."coupon_redemptions" ("coupon_id", "customer_id") where "status" = 'active' and "customer_id" > 0`,
    },
    {
      name: 'coupon_redemptions_email_idx',
      expression: `create index "coupon_redemptions_email_idx" on "catalog"."coupon_redemptions" ("coupon_id", "email") where "status" = 'active' and "email" <> ''`,
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    redemptionKey: p.string().length(200),
    couponId: p.integer(),
    code: p.string().length(200),
    orderId: p.bigint('number').default(0),
    reservationId: p.string().length(100).default(''),
    customerId: p.bigint('number').default(0),
    /** Lower-cased; per-user limits of guests count by it. */
    email: p.string().length(320).default(''),
    /** active | released */
    status: p.string().length(20),
    createdAt: p.datetime(),
    releasedAt: p.datetime().nullable(),
  },
});
export type CouponRedemption = InferEntity<typeof CouponRedemption>;

export const entities = [
  Product,
  ProductCount,
  Price,
  Variation,
  Term,
  ProductTerm,
  Coupon,
  StockLevel,
  StockMovement,
  Reservation,
  ReservationLine,
  CouponRedemption,
];
