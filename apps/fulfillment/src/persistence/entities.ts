import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A tax rate; `postcode` and `city` hold normalized ';'-separated lists ('' = any). */
export const TaxRate = defineEntity({
  name: 'TaxRate',
  tableName: 'tax_rates',
  indexes: [{ name: 'tax_rates_order_idx', properties: ['order', 'id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    country: p.string().length(2).default(''),
    state: p.string().length(200).default(''),
    postcode: p.text().default(''),
    city: p.text().default(''),
    rate: p.decimal('string').precision(9).scale(4),
    name: p.string().length(200).default(''),
    priority: p.integer().default(1),
    compound: p.boolean().default(false),
    shipping: p.boolean().default(true),
    order: p.integer().default(0),
    class: p.string().length(100).default('standard'),
  },
});
export type TaxRate = InferEntity<typeof TaxRate>;

/** A shipping zone; id 0 is the permanent "rest of the world" zone seeded by the first migration. */
export const ShippingZone = defineEntity({
  name: 'ShippingZone',
  tableName: 'shipping_zones',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(200),
    order: p.integer().default(0),
  },
});
export type ShippingZone = InferEntity<typeof ShippingZone>;

/** One location of a zone: a region code (country, state, continent) or a postcode pattern. */
export const ShippingZoneLocation = defineEntity({
  name: 'ShippingZoneLocation',
  tableName: 'shipping_zone_locations',
  indexes: [{ name: 'shipping_zone_locations_zone_idx', properties: ['zone'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    zone: () => p.manyToOne(ShippingZone).deleteRule('cascade'),
    /** "US", "US:CA", "EU" (continent) or a postcode pattern. */
    code: p.string().length(200),
    /** country | state | continent | postcode */
    type: p.string().length(20),
  },
});
export type ShippingZoneLocation = InferEntity<typeof ShippingZoneLocation>;

/** A configured shipping method of a zone (Woo "method instance"). */
export const ShippingMethodInstance = defineEntity({
  name: 'ShippingMethodInstance',
  tableName: 'shipping_method_instances',
  indexes: [{ name: 'shipping_method_instances_zone_idx', properties: ['zone'] }],
  properties: {
    instanceId: p.integer().primary().autoincrement(),
    zone: () => p.manyToOne(ShippingZone).deleteRule('cascade'),
    /** Method type: flat_rate | free_shipping | local_pickup. */
    methodId: p.string().length(40),
    title: p.string().length(200),
    enabled: p.boolean().default(true),
    order: p.integer().default(0),
    settings: p.json<Record<string, unknown>>(),
  },
});
export type ShippingMethodInstance = InferEntity<typeof ShippingMethodInstance>;

/**
 * A counter bumped in every transaction that changes zones, methods or tax
 * rates: each replica compares it with the revision of its in-memory quote
 * snapshot, so a change made through any replica is seen by the next quote.
 */
export const ConfigurationRevision = defineEntity({
  name: 'ConfigurationRevision',
  tableName: 'configuration_revisions',
  properties: {
    name: p.string().length(50).primary(),
    revision: p.integer().default(0),
  },
});
export type ConfigurationRevision = InferEntity<typeof ConfigurationRevision>;

/** Read model of paid orders' lines (orders.order_paid), walked by bundle sync. */
export const PaidOrderLine = defineEntity({
  name: 'PaidOrderLine',
  tableName: 'paid_order_lines',
  indexes: [{ name: 'paid_order_lines_product_idx', properties: ['productId', 'orderId'] }],
  properties: {
    orderId: p.bigint('number').primary(),
    productId: p.bigint('number').primary(),
    variationId: p.bigint('number').primary(),
    customerId: p.bigint('number'),
    paidAt: p.datetime(),
  },
});

/** An order that stopped counting as paid (final): an order_paid handled later grants it nothing. */
export const RevokedOrder = defineEntity({
  name: 'RevokedOrder',
  tableName: 'revoked_orders',
  properties: {
    orderId: p.bigint('number').primary().autoincrement(false),
    revokedAt: p.datetime(),
  },
});

/** A customer's permission to download one file of a product bought in an order. */
export const DownloadPermissionRow = defineEntity({
  name: 'DownloadPermissionRow',
  tableName: 'download_permissions',
  indexes: [{ name: 'download_permissions_customer_idx', properties: ['customerId', 'id'] }],
  uniques: [{ name: 'download_permissions_grant_unique', properties: ['orderId', 'productId', 'downloadId'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    orderId: p.bigint('number'),
    customerId: p.bigint('number'),
    productId: p.bigint('number'),
    productName: p.text().default(''),
    downloadId: p.string().length(100),
    downloadName: p.text().default(''),
    file: p.text(),
    downloadsRemaining: p.integer(),
    downloadCount: p.integer().default(0),
    accessGranted: p.datetime().defaultRaw('now()'),
    accessExpires: p.datetime().nullable(),
  },
});

/** One streaming of a permission's file; completed once, when the last byte left. */
export const DownloadSession = defineEntity({
  name: 'DownloadSession',
  tableName: 'download_sessions',
  properties: {
    id: p.uuid().primary(),
    permission: () => p.manyToOne(DownloadPermissionRow).deleteRule('cascade'),
    file: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    completedAt: p.datetime().nullable(),
  },
});

export const entities = [
  TaxRate,
  ShippingZone,
  ShippingZoneLocation,
  ShippingMethodInstance,
  ConfigurationRevision,
  PaidOrderLine,
  RevokedOrder,
  DownloadPermissionRow,
  DownloadSession,
];
