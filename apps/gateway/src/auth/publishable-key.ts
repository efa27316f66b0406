import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anonymousCaller, CachedValue } from '@storefront/grpc-client';
import type { EventTransport } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { unauthorized } from '@storefront/errors';
import type { customers } from '@storefront/proto/customers';
import type { CustomersClients } from '../clients';

/** Headers a keyed cross-origin request may send (spec 4.2 rule 7, plus what a JSON cart client needs). */
const ALLOWED_HEADERS = 'X-Shop-Embed-Key, X-Shop-Pk, X-Platform-Nonce, Content-Type, X-Shop-Session, Idempotency-Key';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Response headers an embedded client reads (its cart session token, a replayed placement, the request id). */
const EXPOSED_HEADERS = 'X-Shop-Session, Idempotent-Replayed, X-Request-Id';

/**
 * The embed addon's active publishable keys, by key, cached: a keyed request
 * costs no call to the customers service. A create or revoke through this
 * gateway reloads at once, other replicas on `customers.publishable_keys_changed`;
 * the TTL bounds staleness should an event be missed.
 */
export class PublishableKeyCache {
  private readonly keys: CachedValue<Map<string, customers.PublishableKey>>;

  constructor(client: CustomersClients['publishableKey'], ttlMs: number) {
    const load = () =>
      client.listPublishableKeys({}, anonymousCaller('gateway')).then(({ publishableKeys }) => new Map(publishableKeys.map((k) => [k.key, k])));
    this.keys = new CachedValue(load, ttlMs);
  }

  async lookup(key: string): Promise<customers.PublishableKey | undefined> {
    return (await this.keys.get()).get(key);
  }

  /** Whether any active key allows `origin` (a preflight, which cannot carry the key header). */
  async anyAllows(origin: string): Promise<boolean> {
    for (const k of (await this.keys.get()).values()) if (k.allowedOrigins.includes(origin)) return true;
    return false;
  }

  invalidate(): void {
    this.keys.invalidate();
  }

  subscribe(transport: EventTransport): () => void {
    return transport.subscribe(transport.subjectFor(CustomerEvents.publishableKeysChanged.subject), () => this.invalidate());
  }
}

type Area = 'cart' | 'checkout';

/**
 * Publishable/embed keys on cart and checkout routes (spec 5,
 * "Publishable / embed key"). With the embed addon, a keyed request passes
 * when its key is active (else 401 `shop_pk_invalid`) and gets CORS headers
 * when its Origin is one the key allows; a CORS preflight is answered for an
 * origin some active key allows. Without the addon no key handler exists and
 * a keyed request is rejected (`shop_cart_pk_unsupported` /
 * `shop_checkout_pk_unsupported`). Requests without a key continue on the
 * cookie + nonce path either way.
 */
export function installPublishableKeyGate(app: FastifyInstance, prefix: string, keys: PublishableKeyCache | undefined): void {
  const areaOf = (request: FastifyRequest): Area | undefined => {
    // The route it matched, not the raw URL (`//shop/v1/cart` reaches the cart route too).
    const url = request.routeOptions.url ?? request.url;
    // Cart and checkout only (spec 5): the mini cart is plainly public, a key there is not looked at.
    if (url.startsWith(`${prefix}/cart`)) return 'cart';
    return url.startsWith(`${prefix}/checkout`) ? 'checkout' : undefined;
  };
  // Synchronous for keyless requests (Fastify's `done`): no promise per request on the usual path.
  app.addHook('onRequest', (request, reply, done) => {
    const area = areaOf(request);
    if (!area) return done();
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const key = keyOf(request);
    if (keys && origin && isPreflight(request)) {
      void preflight(keys, key, origin, reply).then((answered) => !answered && done(), done);
      return;
    }
    if (!key) return done();
    if (!keys) throw unauthorized(`shop_${area}_pk_unsupported`, 'Publishable keys are not supported: no key handler is installed.');
    keys.lookup(key).then((found) => {
      if (!found) return done(unauthorized('shop_pk_invalid', 'The publishable key is unknown or revoked.'));
      if (origin && found.allowedOrigins.includes(origin)) corsHeaders(reply, origin);
      done();
    }, done);
  });
}

/** Answers a CORS preflight (204) when its origin may use a key; false leaves it to the OPTIONS route. */
async function preflight(keys: PublishableKeyCache, key: string | undefined, origin: string, reply: FastifyReply): Promise<boolean> {
  const allowed = key ? (await keys.lookup(key))?.allowedOrigins.includes(origin) : await keys.anyAllows(origin);
  if (!allowed) return false;
  corsHeaders(reply, origin);
  reply
    .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
    .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
    .header('Access-Control-Max-Age', '600')
    .code(204)
    .send();
  return true;
}

function corsHeaders(reply: FastifyReply, origin: string): void {
  reply
    .header('Access-Control-Allow-Origin', origin)
    .header('Access-Control-Allow-Credentials', 'true')
    .header('Access-Control-Expose-Headers', EXPOSED_HEADERS)
    .header('Vary', 'Origin');
}

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** The key from its carriers: `X-Shop-Embed-Key` (checkout), `X-Shop-Pk` (cart, legacy checkout), `?pk=` (either). */
function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-shop-embed-key'] ?? request.headers['x-shop-pk'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value.trim();
  const query = (request.query ?? {}) as Record<string, unknown>;
  return typeof query.pk === 'string' && query.pk ? query.pk : undefined;
}
