import { Type, type TSchemaOptions } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { resourceLinks, baseUrl } from '../../http/links';
import { filterByContext } from './context-filter';
import { amountOrNull } from './decimal-amount';
import { postFields, postProperties } from './post';
import { VIEW_EDIT, type Presentation } from './presentation';
import { VariationSchema, variationResource } from './variation';

const StockStatus = (options: TSchemaOptions = {}) =>
  Type.Union(['instock', 'outofstock', 'onbackorder'].map((s) => Type.Literal(s)), options);
const NullableInteger = (description: string, options: TSchemaOptions = {}) =>
  Type.Union([Type.Integer(), Type.Null()], { description, ...options });
const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const inViewEdit = { context: VIEW_EDIT };

const PriceSchema = Type.Object({
  id: Type.Integer({ description: 'The price_id carts and coupons name.' }),
  name: Type.String(),
  amount: Type.Number({ minimum: 0 }),
  compare_at_amount: NullableNumber('The "was" price; null: none.'),
  currency: Type.String({ description: 'ISO 4217 code (default: the store currency).' }),
  type: Type.Union([Type.Literal('onetime'), Type.Literal('subscription')]),
  billing_period: Type.String({ description: '"" for onetime; day, week, month or year.' }),
  billing_interval: Type.Integer(),
  trial_days: Type.Integer(),
}, { title: 'Price' });

/** JSON Schema of a product (posts shape plus commerce fields; contract "Product"). */
export const ProductSchema = Type.Object({
  ...postProperties('shop_product'),
  menu_order: Type.Integer(inViewEdit),
  meta: Type.Record(Type.String(), Type.Unknown(), {
    ...inViewEdit,
    description: 'Custom fields; writes merge keys, a null value removes one.',
  }),
  shop_product_category: Type.Array(Type.Integer(), { ...inViewEdit, description: 'Category ids.' }),
  shop_product_tag: Type.Array(Type.Integer(), { ...inViewEdit, description: 'Tag ids.' }),
  product_type: Type.Union([Type.Literal('simple'), Type.Literal('variable'), Type.Literal('bundle')], inViewEdit),
  prices: Type.Array(PriceSchema, {
    ...inViewEdit,
    description: 'Writes replace the list: items with id update that price, items without id add one, others are removed.',
  }),
  variations: Type.Array(VariationSchema, { ...inViewEdit, description: 'Variable products only; written like prices.' }),
  sku: Type.String({ ...inViewEdit, description: 'Unique (case-insensitive) across products and variations.' }),
  barcode: Type.String(inViewEdit),
  manage_stock: Type.Boolean(inViewEdit),
  stock_quantity: NullableInteger(
    'null when stock is not managed or hidden from this caller (hide_stock); writes set the level.',
    inViewEdit,
  ),
  stock_status: StockStatus({ ...inViewEdit, description: 'Computed from the levels when stock is managed.' }),
  backorders_allowed: Type.Boolean(inViewEdit),
  hide_stock: Type.Boolean({ ...inViewEdit, description: 'Inventory visibility: quantities only for those who edit products.' }),
  low_stock_threshold: NullableInteger('null: the store default; write 0 to clear.', inViewEdit),
  shipping_required: Type.Boolean(inViewEdit),
  downloadable: Type.Boolean(inViewEdit),
  downloads: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), file: Type.String() }), inViewEdit),
  download_limit: Type.Integer(inViewEdit),
  download_expiry: Type.Integer(inViewEdit),
  bundle_product_ids: Type.Array(Type.Integer(), inViewEdit),
  images: Type.Array(Type.String(), { ...inViewEdit, description: 'Image URLs, the first one the main image.' }),
});

const PRODUCTS = '/shop/v1/shop_product';

function priceResource(p: catalog.Price) {
  return {
    id: p.id,
    name: p.name,
    amount: amountOrNull(p.amount) ?? 0,
    compare_at_amount: amountOrNull(p.compareAtAmount),
    currency: p.currency,
    type: p.type,
    billing_period: p.billingPeriod,
    billing_interval: p.billingInterval,
    trial_days: p.trialDays,
  };
}

/** `_links`: self, collection, and the product's terms (host-platform `wp:term` relation). */
function productLinks(p: catalog.Product, { request }: Presentation) {
  const base = baseUrl(request);
  const terms = ['shop_product_category', 'shop_product_tag'].map((taxonomy) => ({
    taxonomy,
    embeddable: true,
    href: `${base}/shop/v1/${taxonomy}?post=${p.id}`,
  }));
  return resourceLinks(request, `${PRODUCTS}/${p.id}`, PRODUCTS, { 'shop:term': terms });
}

export function productResource(p: catalog.Product, view: Presentation) {
  const item = {
    ...postFields(p, 'shop_product', `${view.siteUrl}/product/${p.slug}/`),
    menu_order: p.menuOrder,
    meta: p.meta ?? {},
    shop_product_category: p.shopProductCategory,
    shop_product_tag: p.shopProductTag,
    product_type: p.productType,
    prices: p.prices.map(priceResource),
    variations: p.variations.map(variationResource),
    sku: p.sku,
    barcode: p.barcode,
    manage_stock: p.manageStock,
    stock_quantity: p.stockQuantity ?? null,
    stock_status: p.stockStatus,
    backorders_allowed: p.backordersAllowed,
    hide_stock: p.hideStock,
    low_stock_threshold: p.lowStockThreshold ?? null,
    shipping_required: p.shippingRequired,
    downloadable: p.downloadable,
    downloads: p.downloads.map((d) => ({ id: d.id, name: d.name, file: d.file })),
    download_limit: p.downloadLimit,
    download_expiry: p.downloadExpiry,
    bundle_product_ids: p.bundleProductIds,
    images: p.images,
    _links: productLinks(p, view),
  };
  return filterByContext(item, ProductSchema, view.context);
}
