import type { catalog } from '@storefront/proto/catalog';
import { isLineFailure, type LineFailure, type PurchasableData } from '../domain/lookup/purchasable';

function toProtoPurchasable(p: PurchasableData): catalog.Purchasable {
  return {
    productId: p.product.id,
    priceId: p.price.id,
    variationId: p.variation?.id ?? 0,
    name: p.name,
    image: p.image,
    unitAmount: p.unitAmount,
    compareAtAmount: p.price.compareAtAmount ?? undefined,
    currency: p.price.currency,
    priceType: p.price.type,
    billingPeriod: p.price.billingPeriod,
    billingInterval: p.price.billingInterval,
    trialDays: p.price.trialDays,
    shippingRequired: p.product.shippingRequired,
    downloadable: p.product.downloadable,
    productType: p.product.productType,
    sku: p.variation?.sku || p.product.sku,
    stock: {
      manageStock: p.stock.manageStock,
      stockQuantity: p.stock.quantity ?? undefined,
      stockStatus: p.stock.status,
      backordersAllowed: p.stock.backordersAllowed,
    },
    bundleProductIds: p.product.bundleProductIds,
    shopProductCategory: p.categoryIds,
    downloads: p.product.downloads,
    downloadLimit: p.product.downloadLimit,
    downloadExpiry: p.product.downloadExpiry,
  };
}

export function toProtoPurchasableResult(
  ref: catalog.PurchasableRef,
  result: PurchasableData | LineFailure,
): catalog.PurchasableResult {
  return {
    ref,
    result: isLineFailure(result)
      ? { $case: 'error', value: result }
      : { $case: 'purchasable', value: toProtoPurchasable(result) },
  };
}
