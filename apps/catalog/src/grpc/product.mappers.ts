import type { catalog } from '@storefront/proto';
import type { Price } from '../persistence/entities';
import type { ProductInput } from '../domain/product-input';
import type { ProductView, VariationView } from '../domain/product-view';

/** Present wrappers become lists (replace); absent ones stay undefined (unchanged). */
export function fromProductFields(f: catalog.ProductFields | undefined): ProductInput {
  if (!f) return {};
  return {
    title: f.title,
    content: f.content,
    excerpt: f.excerpt,
    slug: f.slug,
    status: f.status,
    author: f.author,
    menuOrder: f.menuOrder,
    meta: f.meta,
    categories: f.shopProductCategory?.ids,
    tags: f.shopProductTag?.ids,
    productType: f.productType,
    prices: f.prices?.items,
    variations: f.variations?.items,
    sku: f.sku,
    barcode: f.barcode,
    manageStock: f.manageStock,
    stockQuantity: f.stockQuantity,
    stockStatus: f.stockStatus,
    backordersAllowed: f.backordersAllowed,
    hideStock: f.hideStock,
    lowStockThreshold: f.lowStockThreshold,
    shippingRequired: f.shippingRequired,
    downloadable: f.downloadable,
    downloads: f.downloads?.items,
    downloadLimit: f.downloadLimit,
    downloadExpiry: f.downloadExpiry,
    bundleProductIds: f.bundleProductIds?.ids,
    images: f.images?.values,
  };
}

export function toProtoPrice(p: Price): catalog.Price {
  return {
    id: p.id,
    productId: p.productId,
    name: p.name,
    amount: p.amount,
    compareAtAmount: p.compareAtAmount ?? undefined,
    currency: p.currency,
    type: p.type,
    billingPeriod: p.billingPeriod,
    billingInterval: p.billingInterval,
    trialDays: p.trialDays,
  };
}

export function toProtoVariation(v: VariationView): catalog.Variation {
  const { variation } = v;
  return {
    id: variation.id,
    productId: variation.productId,
    attributes: variation.attributes,
    sku: variation.sku,
    barcode: variation.barcode,
    priceId: v.priceId,
    amount: variation.amount ?? undefined,
    unitAmount: v.unitAmount,
    currency: v.currency,
    stockQuantity: v.stockQuantity ?? undefined,
    stockStatus: v.stockStatus,
    image: variation.image,
  };
}

export function toProtoProduct(view: ProductView): catalog.Product {
  const p = view.product;
  return {
    id: p.id,
    date: p.createdAt,
    modified: p.modifiedAt,
    slug: p.slug,
    status: p.status,
    title: p.title,
    content: p.content,
    excerpt: p.excerpt,
    author: p.authorId,
    menuOrder: p.menuOrder,
    meta: p.meta,
    shopProductCategory: view.categoryIds,
    shopProductTag: view.tagIds,
    productType: p.productType,
    prices: view.prices.map(toProtoPrice),
    variations: view.variations.map(toProtoVariation),
    sku: p.sku,
    barcode: p.barcode,
    manageStock: p.manageStock,
    stockQuantity: view.stockQuantity ?? undefined,
    stockStatus: view.stockStatus,
    backordersAllowed: p.backordersAllowed,
    hideStock: p.hideStock,
    lowStockThreshold: p.lowStockThreshold ?? undefined,
    shippingRequired: p.shippingRequired,
    downloadable: p.downloadable,
    downloads: p.downloads,
    bundleProductIds: p.bundleProductIds,
    images: p.images,
    downloadLimit: p.downloadLimit,
    downloadExpiry: p.downloadExpiry,
  };
}
