import { bindClient, type Channel } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import { unavailable } from './unavailable';
import type { CatalogPort, CouponRecord, LookupResult } from '../../domain/ports';
import { SERVICE_CALLER } from './service-caller';

function couponRecord(c: catalog.Coupon, holderUses: number): CouponRecord {
  return {
    id: c.id,
    code: c.title.toLowerCase(),
    discountType: c.discountType,
    amount: c.amount || '0',
    usageLimit: c.usageLimit || undefined,
    usageLimitPerUser: c.usageLimitPerUser || undefined,
    usageCount: c.usageCount,
    allowedProductIds: c.allowedProductIds,
    allowedPriceIds: c.allowedPriceIds,
    allowedCustomerIds: c.allowedCustomerIds,
    excludedProductIds: c.excludedProductIds,
    minimumAmount: c.minimumAmount || undefined,
    maximumAmount: c.maximumAmount || undefined,
    expiryDate: c.expiryDate || undefined,
    individualUse: c.individualUse,
    freeShipping: c.freeShipping,
    bogoBuyQuantity: c.bogoBuyQuantity,
    bogoGetQuantity: c.bogoGetQuantity,
    holderUses,
  };
}

/** Catalog over gRPC: batched purchasables, coupons by code, reservations and coupon redemption. */
export function catalogPort(channel: Channel | undefined): CatalogPort {
  if (!channel) return unavailable('catalog', 'CATALOG_GRPC_ADDR');
  const lookup = bindClient(channel, catalog.CatalogLookupServiceService);
  const coupons = bindClient(channel, catalog.CouponServiceService);
  const stock = bindClient(channel, catalog.StockServiceService);
  const c = SERVICE_CALLER;
  return {
    async purchasables(refs) {
      const { results } = await lookup.getPurchasables({ lines: refs }, c);
      return results.map((r): LookupResult => {
        const result = r.result;
        if (result?.$case === 'purchasable') {
          const p = result.value;
          return {
            purchasable: {
              productId: p.productId,
              priceId: p.priceId,
              variationId: p.variationId,
              name: p.name,
              image: p.image,
              unitAmount: p.unitAmount,
              currency: p.currency,
              priceType: p.priceType,
              ...(p.priceType === 'subscription'
                ? { subscription: { billingPeriod: p.billingPeriod, billingInterval: p.billingInterval || 1, trialDays: p.trialDays } }
                : {}),
              shippingRequired: p.shippingRequired,
              downloadable: p.downloadable,
              sku: p.sku,
              stock: {
                manageStock: p.stock?.manageStock ?? false,
                stockQuantity: p.stock?.stockQuantity ?? null,
                stockStatus: p.stock?.stockStatus ?? 'instock',
                backordersAllowed: p.stock?.backordersAllowed ?? false,
              },
            },
          };
        }
        const e = result?.$case === 'error' ? result.value : undefined;
        return { error: { code: e?.code || 'shop_cart_invalid_price', status: e?.status || 422, message: e?.message || 'Invalid price.' } };
      });
    },
    async findCoupon(code, holder) {
      const { coupon, holderUses } = await coupons.findCouponByCode({ code, customerId: holder.customerId, email: holder.email }, c);
      return coupon ? couponRecord(coupon, Number(holderUses)) : undefined;
    },
    async reserveStock(reservationId, lines, ttlSeconds) {
      await stock.reserveStock({ reservationId, lines, ttlSeconds }, c);
    },
    async renewReservation(reservationId, ttlSeconds) {
      await stock.renewReservation({ reservationId, ttlSeconds }, c);
    },
    async commitReservation(reservationId) {
      await stock.commitReservation({ reservationId }, c);
    },
    async releaseReservation(reservationId, reason) {
      await stock.releaseReservation({ reservationId, reason }, c);
    },
    async redeemCoupons(input) {
      await coupons.redeemCoupons(
        {
          redemptionKey: input.key,
          orderId: input.orderId,
          customerId: input.customerId,
          email: input.email,
          codes: input.codes,
          reservationId: input.reservationId,
        },
        c,
      );
    },
    async releaseCoupons(key) {
      await coupons.releaseCoupons({ redemptionKey: key, orderId: 0 }, c);
    },
  };
}
