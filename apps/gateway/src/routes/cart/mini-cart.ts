import { Type } from 'typebox';
import type { CartClients } from '../../clients';
import type { RouteModule } from '../../context';
import { errorResponses } from '../../http/responses';
import { miniCartResource, MiniCartSchema } from '../../resources/cart/mini-cart';
import { applySession, cartSession } from './session';

const Query = Type.Object({
  render: Type.Boolean({ default: true, description: 'When false, cart_items_html is omitted.' }),
  session_id: Type.Optional(Type.String({ maxLength: 128 })),
});

/** Spec 4.17 `GET /mini-cart/current`, rendered from the same snapshot as GET /cart. */
export function miniCartRoutes(clients: CartClients): RouteModule {
  return (app) => {
    app.get(
      '/mini-cart/current',
      {
        config: { access: 'public' },
        schema: { operationId: 'getMiniCart', tags: ['cart'], summary: 'The mini cart.', querystring: Query, response: { 200: MiniCartSchema, ...errorResponses(400, 401, 503) } },
      },
      async (request, reply) => {
        const r = await clients.cart.getCart({ session: cartSession(request) }, request.caller);
        applySession(request, reply, r.session);
        return miniCartResource(r.snapshot, request.query.render);
      },
    );
  };
}
