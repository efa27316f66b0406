import { describe, expect, it } from '@jest/globals';
import { capabilitiesOf, isKnownRole } from '../src';

describe('roles (contract "Host platform")', () => {
  it('administrator has every capability including manage_options', () => {
    const caps = capabilitiesOf(['administrator']);
    expect(caps).toEqual(expect.arrayContaining(['manage_options', 'read', 'edit_shop_products', 'publish_shop_coupons']));
  });

  it('shop_manager has the product and coupon capabilities but not manage_options', () => {
    const caps = capabilitiesOf(['shop_manager']);
    for (const cap of ['edit_shop_product', 'read_shop_product', 'delete_shop_product', 'edit_shop_products', 'publish_shop_products']) {
      expect(caps).toContain(cap);
      expect(caps).toContain(cap.replace('product', 'coupon'));
    }
    expect(caps).toContain('read');
    expect(caps).not.toContain('manage_options');
  });

  it('shop_customer can only read; unknown roles grant nothing', () => {
    expect(capabilitiesOf(['shop_customer'])).toEqual(['read']);
    expect(capabilitiesOf(['emperor'])).toEqual([]);
    expect(isKnownRole('emperor')).toBe(false);
    expect(capabilitiesOf(['shop_customer', 'shop_manager']).filter((c) => c === 'read')).toHaveLength(1);
  });
});
