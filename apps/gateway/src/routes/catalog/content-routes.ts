import type { RouteModule } from '../../context';
import { couponRoutes } from './coupons';
import { productRoutes } from './products';
import { termRoutes } from './terms';

/** Native content-type routes: shop_product, shop_product_category, shop_product_tag, shop_coupon. */
export const CONTENT_ROUTES: RouteModule[] = [productRoutes, termRoutes, couponRoutes];
