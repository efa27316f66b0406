import type { catalog } from '@storefront/proto/catalog';
import type { Price } from '../persistence/entities';
import type { ProductInput } from '../domain/products/product-input';
import type { ProductView, VariationView } from '../domain/products/product-view';

/**
 * Scalar fields carry the same names in the proto and the domain input and pass
 * through as they are; wrappers become lists (present: replace, absent: unchanged).
 */
export function fromProductFields(f: catalog.ProductFields | undefined): ProductInput {
  if (!f) return {};
  const { shopProductCategory, shopProductTag, prices, variations, downloads, bundleProductIds, images, ...scalars } = f;
  return {
    ...scalars,
    categories: shopProductCategory?.ids,
    tags: shopProductTag?.ids,
    prices: prices?.items,
    variations: variations?.items,
    downloads: downloads?.items,
    bundleProductIds: bundleProductIds?.ids,
    images: images?.values,
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

/** The row's columns pass through under their names; only what the view computes or renames is set here. */
export function toProtoProduct(view: ProductView): catalog.Product {
  const p = view.product;
  return {
    ...p,
    date: p.createdAt,
    modified: p.modifiedAt,
    author: p.authorId,
    shopProductCategory: view.categoryIds,
    shopProductTag: view.tagIds,
    prices: view.prices.map(toProtoPrice),
    variations: view.variations.map(toProtoVariation),
    stockQuantity: view.stockQuantity ?? undefined,
    stockStatus: view.stockStatus,
    lowStockThreshold: p.lowStockThreshold ?? undefined,
  };
}
