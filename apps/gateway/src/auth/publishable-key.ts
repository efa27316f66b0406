import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '@storefront/errors';

/**
 * Publishable/embed keys on cart and checkout routes are decided by the
 * embeddable-checkout addon's key handler. No handler is installed in this
 * build, so a keyed request is rejected (spec section 5); requests without a
 * key continue on the cookie + nonce path.
 */
export function installPublishableKeyGate(app: FastifyInstance, prefix: string): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    const area = path.startsWith(`${prefix}/cart`) || path.startsWith(`${prefix}/mini-cart`)
      ? 'cart'
      : path.startsWith(`${prefix}/checkout`)
        ? 'checkout'
        : undefined;
    if (!area || !hasKey(request)) return;
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
