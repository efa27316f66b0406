import type { DownloadableProduct, NewPermission } from './types';

/**
 * The permissions an order gets for one product: one per file, with the
 * product's limit (-1 = unlimited) and expiry (days after purchase, -1 = never).
 */
export function permissionsFor(
  product: DownloadableProduct,
  order: { orderId: number; customerId: number; paidAt: Date },
  now: Date,
): NewPermission[] {
  if (!product.downloads.length) return [];
  const limit = Number.isInteger(product.downloadLimit) && product.downloadLimit >= 0 ? product.downloadLimit : -1;
  const expires =
    Number.isInteger(product.downloadExpiry) && product.downloadExpiry >= 0
      ? new Date(order.paidAt.getTime() + product.downloadExpiry * 86_400_000)
      : null;
  return product.downloads
    .filter((d) => d.id && d.file)
    .map((d) => ({
      orderId: order.orderId,
      customerId: order.customerId,
      productId: product.productId,
      productName: product.name,
      downloadId: d.id,
      downloadName: d.name,
      file: d.file,
      downloadsRemaining: limit,
      accessGranted: now,
      accessExpires: expires,
    }));
}
