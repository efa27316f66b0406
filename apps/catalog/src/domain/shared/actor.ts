import { can, denied, type Principal } from '@storefront/access';

export { can, canAny, denied } from '@storefront/access';

/** Who acts: the caller's user id (0 for a guest) and capabilities, as the gateway resolved them. */
export type Actor = Principal;

/** The service itself (demo seeding, the reservation sweep): every capability, user id 0. */
export const SYSTEM_ACTOR: Actor = {
  userId: 0,
  capabilities: [
    'edit_shop_product',
    'read_shop_product',
    'delete_shop_product',
    'edit_shop_products',
    'publish_shop_products',
    'read_private_shop_products',
    'manage_shop_product_terms',
    'edit_shop_product_terms',
    'delete_shop_product_terms',
    'edit_shop_coupon',
    'read_shop_coupon',
    'delete_shop_coupon',
    'edit_shop_coupons',
    'publish_shop_coupons',
    'read_private_shop_coupons',
  ],
};

export function requireCapability(actor: Actor, capability: string, code: string, message: string): void {
  if (!can(actor, capability)) throw denied(actor, code, message);
}

/** Stock and inventory routes need edit_shop_products (spec 5, tier 2). */
export function requireStockManager(actor: Actor): void {
  requireCapability(actor, 'edit_shop_products', 'rest_forbidden', 'Sorry, you are not allowed to manage stock.');
}
