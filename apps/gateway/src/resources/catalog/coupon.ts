import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { resourceLinks } from '../../http/links';
import { filterByContext } from './context-filter';
import { couponFieldsRead, couponFieldValues } from './coupon-fields';
import { postFields, postProperties } from './post';
import { VIEW_EDIT, type Presentation } from './presentation';

/** JSON Schema of a coupon: the posts shape (title = the code) with the coupon fields in `meta`. */
export const CouponSchema = Type.Object({
  ...postProperties('shop_coupon'),
  meta: Type.Object(couponFieldsRead, {
    context: VIEW_EDIT,
    additionalProperties: true,
    description: 'The coupon fields plus any custom meta keys.',
  }),
});

const COUPONS = '/shop/v1/shop_coupon';

/**
 * Coupons are not public pages, so `link` is the host platform's plain
 * permalink of a non-public type rather than a storefront path.
 */
export function couponResource(c: catalog.Coupon, view: Presentation) {
  const item = {
    ...postFields(c, 'shop_coupon', `${view.siteUrl}/?post_type=shop_coupon&p=${c.id}`),
    // Custom meta cannot shadow a coupon field: writes route those keys to the fields.
    meta: { ...(c.meta ?? {}), ...couponFieldValues(c) },
    _links: resourceLinks(view.request, `${COUPONS}/${c.id}`, COUPONS),
  };
  return filterByContext(item, CouponSchema, view.context);
}
