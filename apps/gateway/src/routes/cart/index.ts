import type { RouteModule } from '../../context';
import { cartRoutes } from './cart';
import { checkoutRoutes } from './checkout';
import { miniCartRoutes } from './mini-cart';

/** Routes of the cart service: /cart, /checkout, /mini-cart (registered when CART_GRPC_ADDR is set). */
export const cartServiceRoutes: RouteModule = (app, ctx) => {
  const clients = ctx.clients.cart;
  if (!clients) return;
  for (const routes of [cartRoutes(clients), checkoutRoutes(clients), miniCartRoutes(clients)]) routes(app, ctx);
};
