/** The capabilities of a posts-shaped content type (spec 5, "Products and coupons"). */
export interface PostTypeRules {
  /** Noun used in messages. */
  noun: 'product' | 'coupon';
  editOne: string;
  readOne: string;
  deleteOne: string;
  editCollection: string;
  publish: string;
  readPrivate: string;
  /**
   * Whether even a published item needs `readOne`. Products are the public catalog;
   * coupon codes are secrets that would be free discounts if anyone could list them.
   */
  publishedNeedsReadCapability: boolean;
}

export const PRODUCT_RULES: PostTypeRules = {
  noun: 'product',
  editOne: 'edit_shop_product',
  readOne: 'read_shop_product',
  deleteOne: 'delete_shop_product',
  editCollection: 'edit_shop_products',
  publish: 'publish_shop_products',
  readPrivate: 'read_private_shop_products',
  publishedNeedsReadCapability: false,
};

export const COUPON_RULES: PostTypeRules = {
  noun: 'coupon',
  editOne: 'edit_shop_coupon',
  readOne: 'read_shop_coupon',
  deleteOne: 'delete_shop_coupon',
  editCollection: 'edit_shop_coupons',
  publish: 'publish_shop_coupons',
  readPrivate: 'read_private_shop_coupons',
  publishedNeedsReadCapability: true,
};
