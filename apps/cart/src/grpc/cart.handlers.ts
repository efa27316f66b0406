import { cart } from '@storefront/proto/cart';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CartDomain } from '../domain';
import { lineMessage, sessionMessage, snapshotMessage } from './mappers';

/** CartService: proto in, one domain call, proto out. */
export function cartHandlers(domain: CartDomain): ServiceHandlers<typeof cart.CartServiceService> {
  const token = (r: { session?: cart.CartSession }) => r.session?.token ?? '';
  return {
    async getCart(req, caller) {
      const r = await domain.carts.get(caller, token(req));
      return { snapshot: snapshotMessage(r.snapshot), session: sessionMessage(r.session) };
    },
    async addItem(req, caller) {
      const r = await domain.carts.add(caller, token(req), {
        priceId: req.priceId,
        productId: req.productId,
        variationId: req.variationId,
        quantity: req.quantity,
        replaceCart: req.replaceCart,
      });
      return {
        item: lineMessage(r.item, r.snapshot.decimals),
        snapshot: snapshotMessage(r.snapshot),
        session: sessionMessage(r.session),
      };
    },
    async updateItem(req, caller) {
      const r = await domain.carts.update(caller, token(req), req.itemKey, req.quantity);
      return {
        item: r.item && lineMessage(r.item, r.snapshot.decimals),
        productId: r.productId,
        priceId: r.priceId,
        message: r.message,
        snapshot: snapshotMessage(r.snapshot),
        session: sessionMessage(r.session),
      };
    },
    async removeItem(req, caller) {
      const r = await domain.carts.remove(caller, token(req), req.itemKey);
      return {
        item: r.item && lineMessage(r.item, r.snapshot.decimals),
        message: r.message,
        snapshot: snapshotMessage(r.snapshot),
        session: sessionMessage(r.session),
      };
    },
    async clearCart(req, caller) {
      const r = await domain.carts.clear(caller, token(req));
      return { snapshot: snapshotMessage(r.snapshot), session: sessionMessage(r.session) };
    },
    async applyCoupon(req, caller) {
      const r = await domain.coupons.apply(caller, token(req), req.code);
      return { code: r.code, snapshot: snapshotMessage(r.snapshot), session: sessionMessage(r.session) };
    },
    async removeCoupon(req, caller) {
      const r = await domain.coupons.remove(caller, token(req), req.code);
      return { code: r.code, snapshot: snapshotMessage(r.snapshot), session: sessionMessage(r.session) };
    },
  };
}
