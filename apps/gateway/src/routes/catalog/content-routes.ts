import type { RouteModule } from '../../context';

/** Native content-type routes: shop_product, shop_product_category, shop_product_tag, shop_coupon. */
export const CONTENT_ROUTES: RouteModule[] = [];
