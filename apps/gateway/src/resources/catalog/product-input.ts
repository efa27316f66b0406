import { Type, type Static } from 'typebox';
import { catalog } from '@storefront/proto/catalog';
import { Id, MAX_ID, Nullable } from '../../http/schemas';
import { decimalText, IdArray, Int4, MetaObject, Money, OptionalMoney, RawText, rawText } from './write-values';

// Product writes (POST, PUT, PATCH): the body schema and its mapping to the
// proto's patch fields. Bounds here keep values inside the proto's types and
// reject wrong types early; the catalog owns the business rules (lengths,
// currencies, SKU uniqueness, stock rules) and answers them with 400s too.

const Literals = (values: string[], description?: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), description ? { description } : {});

const PriceWrite = Type.Object(
  {
    id: Type.Optional(Id('An existing price of this product to update; absent: a new price.')),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    amount: Money('Price.'),
    compare_at_amount: Type.Optional(OptionalMoney('The "was" price.')),
    currency: Type.Optional(Type.String({ pattern: '^([A-Z]{3})?$', description: 'ISO 4217; absent: the store currency.' })),
    type: Type.Optional(Literals(['onetime', 'subscription'])),
    billing_period: Type.Optional(Literals(['', 'day', 'week', 'month', 'year'])),
    billing_interval: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    trial_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 730 })),
  },
  { additionalProperties: false },
);

const VariationWrite = Type.Object(
  {
    id: Type.Optional(Id('An existing variation of this product to update; absent: a new variation.')),
    attributes: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown())),
    sku: Type.Optional(Type.String({ maxLength: 200 })),
    barcode: Type.Optional(Type.String({ maxLength: 200 })),
    price_id: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: "0: the product's first price." })),
    amount: Type.Optional(OptionalMoney("Override of the price's amount.")),
    stock_quantity: Type.Optional(Nullable(Int4('Sets the level (managed stock); null: unchanged.'))),
    image: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

const Download = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100, description: 'Generated when absent.' })),
    name: Type.String({ maxLength: 200 }),
    file: Type.String({ maxLength: 1024, description: 'Path relative to the files directory (FILES_DIR); no absolute path, `..` or URL.' }),
  },
  { additionalProperties: false },
);

const productWritable = {
  title: RawText(1000, 'Product name.'),
  content: RawText(500_000, 'Description (plain text).'),
  excerpt: RawText(10_000, 'Short description (plain text).'),
  slug: Type.String({ maxLength: 200, description: 'Default: from the title, made unique with -2, -3...' }),
  status: Literals(['publish', 'draft', 'pending', 'private'], 'Default on create: draft.'),
  author: Int4('User id; 0 or absent on create: the caller.', 0),
  menu_order: Int4('Sort position.'),
  meta: MetaObject('Custom fields, merged; a null value removes the key.'),
  shop_product_category: IdArray('Category ids (replaces the list).'),
  shop_product_tag: IdArray('Tag ids (replaces the list).'),
  product_type: Literals(['simple', 'variable', 'bundle'], 'Default: simple.'),
  prices: Type.Array(PriceWrite, { maxItems: 50, description: 'Replaces the list (items with id update that price).' }),
  variations: Type.Array(VariationWrite, { maxItems: 200, description: 'Variable products; replaced like prices.' }),
  sku: Type.String({ maxLength: 200 }),
  barcode: Type.String({ maxLength: 200 }),
  manage_stock: Type.Boolean(),
  stock_quantity: Nullable(Int4('Sets the stock level (needs manage_stock); null: unchanged.')),
  stock_status: Literals(['instock', 'outofstock', 'onbackorder'], 'Only for products that do not manage stock.'),
  backorders_allowed: Type.Boolean(),
  hide_stock: Type.Boolean({ description: 'Hide quantities from all but those who edit products.' }),
  low_stock_threshold: Nullable(Int4('null or 0: the store default.', 0)),
  shipping_required: Type.Boolean({ description: 'Default: true.' }),
  downloadable: Type.Boolean(),
  downloads: Type.Array(Download, { maxItems: 50 }),
  download_limit: Int4('Downloads per file; -1: unlimited (default).', -1),
  download_expiry: Int4('Days after purchase a download works; -1: never (default).', -1),
  bundle_product_ids: IdArray('Products of a bundle.'),
  images: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50, description: 'Image URLs.' }),
};

/** PUT/PATCH body: every field optional (absent: unchanged); unknown and read-only fields are dropped. */
export const ProductUpdateBody = Type.Partial(Type.Object(productWritable), { additionalProperties: false });

/** POST body: the update fields, plus `id` only to refuse it (rest_post_exists). */
export const ProductCreateBody = Type.Partial(
  Type.Object({ ...productWritable, id: Type.Unknown({ description: 'Not allowed: products are created without an id.' }) }),
  { additionalProperties: false },
);

export type ProductWrite = Static<typeof ProductUpdateBody>;
type PriceWriteValue = Static<typeof PriceWrite>;
type VariationWriteValue = Static<typeof VariationWrite>;

const money = (value: number | string | null | undefined) =>
  value === undefined || value === null ? undefined : decimalText(value);
const idList = (ids: number[] | undefined) => (ids ? { ids } : undefined);

function priceInput(p: PriceWriteValue): catalog.PriceInput {
  return catalog.PriceInput.fromPartial({
    id: p.id,
    name: p.name,
    amount: decimalText(p.amount),
    compareAtAmount: money(p.compare_at_amount),
    currency: p.currency,
    type: p.type,
    billingPeriod: p.billing_period,
    billingInterval: p.billing_interval,
    trialDays: p.trial_days,
  });
}

function variationInput(v: VariationWriteValue): catalog.VariationInput {
  return catalog.VariationInput.fromPartial({
    id: v.id,
    attributes: v.attributes,
    sku: v.sku,
    barcode: v.barcode,
    priceId: v.price_id,
    amount: money(v.amount),
    stockQuantity: v.stock_quantity ?? undefined,
    image: v.image,
  });
}

/** REST body -> proto patch: absent stays absent, lists are wrapped so "present and empty" means "clear". */
export function productFields(body: ProductWrite): catalog.ProductFields {
  return {
    title: rawText(body.title),
    content: rawText(body.content),
    excerpt: rawText(body.excerpt),
    slug: body.slug,
    status: body.status,
    author: body.author,
    menuOrder: body.menu_order,
    meta: body.meta,
    shopProductCategory: idList(body.shop_product_category),
    shopProductTag: idList(body.shop_product_tag),
    productType: body.product_type,
    prices: body.prices && { items: body.prices.map(priceInput) },
    variations: body.variations && { items: body.variations.map(variationInput) },
    sku: body.sku,
    barcode: body.barcode,
    manageStock: body.manage_stock,
    stockQuantity: body.stock_quantity ?? undefined,
    stockStatus: body.stock_status,
    backordersAllowed: body.backorders_allowed,
    hideStock: body.hide_stock,
    lowStockThreshold: body.low_stock_threshold === null ? 0 : body.low_stock_threshold,
    shippingRequired: body.shipping_required,
    downloadable: body.downloadable,
    downloads: body.downloads && { items: body.downloads.map((d) => ({ id: d.id ?? '', name: d.name, file: d.file })) },
    downloadLimit: body.download_limit,
    downloadExpiry: body.download_expiry,
    bundleProductIds: idList(body.bundle_product_ids),
    images: body.images && { values: body.images },
  };
}
