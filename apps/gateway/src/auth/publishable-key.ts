import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '@storefront/errors';

/**
 * Publishable/embed keys on cart and checkout routes are decided by the
 * embeddable-checkout addon's key handler. No handler is installed in this
 * build, so a keyed request is rejected (spec section 5); requests without a
 * key continue on the cookie + nonce path.
 */
export function installPublishableKeyGate(app: FastifyInstance, prefix: string): void {
  const cart = `${prefix}/cart`;
  const miniCart = `${prefix}/mini-cart`;
  const checkout = `${prefix}/checkout`;
  // Synchronous: Fastify's `done` callback instead of a promise per request (a throw is the same 401).
  app.addHook('onRequest', (request, _reply, done) => {
    // The route it matched, not the raw URL (`//shop/v1/cart` reaches the cart route too).
    const url = request.routeOptions.url ?? request.url;
    const area = url.startsWith(cart) || url.startsWith(miniCart) ? 'cart' : url.startsWith(checkout) ? 'checkout' : undefined;
    if (!area || !hasKey(request)) return done();
    throw unauthorized(
      `shop_${area}_pk_unsupported`,
      'Publishable keys are not supported: no key handler is installed.',
    );
  });
}

function hasKey(request: FastifyRequest): boolean {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return Boolean(request.headers['x-shop-embed-key'] || request.headers['x-shop-pk'] || query.pk);
}
