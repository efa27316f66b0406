// The host platform's roles and capabilities (contract "Host platform"). The customers
// service assigns roles; every service and the gateway derive capabilities from them.

const PRODUCT_CAPS = [
  'edit_shop_product',
  'read_shop_product',
  'delete_shop_product',
  'edit_shop_products',
  'edit_others_shop_products',
  'edit_published_shop_products',
  'edit_private_shop_products',
  'publish_shop_products',
  'read_private_shop_products',
  'delete_shop_products',
  'delete_others_shop_products',
  'delete_published_shop_products',
  'delete_private_shop_products',
  'manage_shop_product_terms',
  'edit_shop_product_terms',
  'delete_shop_product_terms',
  'assign_shop_product_terms',
];
const COUPON_CAPS = PRODUCT_CAPS.filter((c) => !c.includes('_terms')).map((c) => c.replace('product', 'coupon'));

/** Roles of the host platform and the capabilities each grants (contract "Host platform"). */
export const ROLES: Record<string, { name: string; capabilities: string[] }> = {
  administrator: {
    name: 'Administrator',
    capabilities: [
      'read',
      'manage_options',
      'list_users',
      'create_users',
      'edit_users',
      'delete_users',
      'promote_users',
      'pay_for_order',
      ...PRODUCT_CAPS,
      ...COUPON_CAPS,
    ],
  },
  shop_manager: {
    name: 'Shop manager',
    capabilities: ['read', ...PRODUCT_CAPS, ...COUPON_CAPS],
  },
  shop_customer: { name: 'Customer', capabilities: ['read'] },
};

export const CUSTOMER_ROLE = 'shop_customer';
export const ADMIN_ROLE = 'administrator';
export const MANAGER_ROLE = 'shop_manager';

export function isKnownRole(role: string): boolean {
  return Object.hasOwn(ROLES, role);
}

export function capabilitiesOf(roles: string[]): string[] {
  const caps = new Set<string>();
  for (const role of roles) for (const cap of ROLES[role]?.capabilities ?? []) caps.add(cap);
  return [...caps];
}
