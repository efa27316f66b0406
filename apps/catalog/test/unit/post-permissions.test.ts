import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import type { Actor } from '../../src/domain/shared/actor';
import {
  assertCanCreate,
  assertCanDelete,
  assertCanList,
  assertCanRead,
  assertCanUpdate,
  canRead,
} from '../../src/domain/posts/post-permissions';
import { COUPON_RULES, PRODUCT_RULES } from '../../src/domain/posts/post-types';

const guest: Actor = { userId: 0, capabilities: [] };
const customer: Actor = { userId: 5, capabilities: ['read'] };
const editor: Actor = { userId: 6, capabilities: ['edit_shop_product', 'edit_shop_products'] };
const manager: Actor = {
  userId: 7,
  capabilities: [
    'edit_shop_product',
    'edit_shop_products',
    'publish_shop_products',
    'read_private_shop_products',
    'delete_shop_product',
  ],
};

function outcome(check: () => void): string {
  try {
    check();
    return 'ok';
  } catch (err) {
    return `${(err as DomainError).code} ${(err as DomainError).status}`;
  }
}

describe('posts visibility rules', () => {
  it('lets anyone read published products, editors drafts, private readers private ones', () => {
    expect(canRead(PRODUCT_RULES, guest, 'publish')).toBe(true);
    for (const status of ['draft', 'pending', 'trash']) {
      expect([canRead(PRODUCT_RULES, customer, status), canRead(PRODUCT_RULES, editor, status)]).toEqual([false, true]);
    }
    expect([canRead(PRODUCT_RULES, editor, 'private'), canRead(PRODUCT_RULES, manager, 'private')]).toEqual([
      false,
      true,
    ]);
  });

  it('needs read_shop_coupon even for published coupons', () => {
    expect(canRead(COUPON_RULES, customer, 'publish')).toBe(false);
    expect(canRead(COUPON_RULES, { userId: 1, capabilities: ['read_shop_coupon'] }, 'publish')).toBe(true);
    expect(outcome(() => assertCanList(COUPON_RULES, guest, ['publish'], 'view'))).toBe('rest_cannot_read 401');
  });

  it('answers 401 to guests and 403 to signed-in users', () => {
    expect(outcome(() => assertCanRead(PRODUCT_RULES, guest, 'draft', 'view'))).toBe('rest_forbidden 401');
    expect(outcome(() => assertCanRead(PRODUCT_RULES, customer, 'draft', 'view'))).toBe('rest_forbidden 403');
    expect(outcome(() => assertCanRead(PRODUCT_RULES, customer, 'publish', 'edit'))).toBe('rest_forbidden_context 403');
    expect(outcome(() => assertCanRead(PRODUCT_RULES, editor, 'draft', 'edit'))).toBe('ok');
  });

  it('guards list statuses and the edit context', () => {
    expect(outcome(() => assertCanList(PRODUCT_RULES, guest, ['publish'], 'view'))).toBe('ok');
    expect(outcome(() => assertCanList(PRODUCT_RULES, guest, ['publish', 'draft'], 'view'))).toBe(
      'rest_forbidden_status 401',
    );
    expect(outcome(() => assertCanList(PRODUCT_RULES, customer, ['publish'], 'edit'))).toBe(
      'rest_forbidden_context 403',
    );
    expect(outcome(() => assertCanList(PRODUCT_RULES, editor, ['private', 'trash'], 'edit'))).toBe('ok');
  });

  it('separates creating, publishing, editing and deleting', () => {
    expect(outcome(() => assertCanCreate(PRODUCT_RULES, customer, 'draft'))).toBe('rest_cannot_create 403');
    expect(outcome(() => assertCanCreate(PRODUCT_RULES, editor, 'draft'))).toBe('ok');
    expect(outcome(() => assertCanCreate(PRODUCT_RULES, editor, 'publish'))).toBe('rest_cannot_publish 403');
    expect(outcome(() => assertCanCreate(PRODUCT_RULES, editor, 'private'))).toBe('rest_cannot_publish 403');
    expect(outcome(() => assertCanUpdate(PRODUCT_RULES, guest, undefined))).toBe('rest_cannot_edit 401');
    expect(outcome(() => assertCanUpdate(PRODUCT_RULES, manager, 'publish'))).toBe('ok');
    expect(outcome(() => assertCanDelete(PRODUCT_RULES, editor))).toBe('rest_cannot_delete 403');
    expect(outcome(() => assertCanDelete(PRODUCT_RULES, manager))).toBe('ok');
  });
});
