import type { ShopClient, ShopResponse } from './client';

/** Store setup for cart and checkout tests, through the admin REST routes (shipping, taxes, coupons). */
export async function created(res: Promise<ShopResponse>): Promise<Record<string, any>> {
  const { status, body } = await res;
  if (status !== 201 && status !== 200) throw new Error(`create failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

export async function createCoupon(admin: ShopClient, code: string, meta: Record<string, unknown>) {
  return created(admin.post('/shop/v1/shop_coupon', { title: code, status: 'publish', meta }));
}

/** A US zone with flat rate `flat` and free shipping (requires, min_amount); returns the rate ids. */
export async function usShipping(admin: ShopClient, flat: number, free: { requires: string; min_amount?: number }) {
  const zone = await created(admin.post('/shop/v1/shipping/zones', { zone_name: 'US', zone_locations: ['US'] }));
  const flatRate = await created(admin.post(`/shop/v1/shipping/zones/${zone.id}/methods`, { method_id: 'flat_rate', settings: { cost: flat } }));
  const freeRate = await created(admin.post(`/shop/v1/shipping/zones/${zone.id}/methods`, { method_id: 'free_shipping', settings: free }));
  return { flat: `flat_rate:${flatRate.instance_id}`, free: `free_shipping:${freeRate.instance_id}` };
}

export async function taxRate(admin: ShopClient, fields: Record<string, unknown>) {
  return created(admin.post('/shop/v1/taxes', fields));
}

export const US_ADDRESS = {
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_address_1: '1 Main St',
  billing_city: 'Springfield',
  billing_state: 'IL',
  billing_postcode: '62701',
  billing_country: 'US',
  billing_email: 'ada@example.com',
};
