import type { FastifyReply, FastifyRequest } from 'fastify';
import type { cart } from '@storefront/proto/cart';

export const CART_COOKIE = 'shop_cart';
const YEAR_S = 365 * 24 * 3600;

/**
 * The guest cart token a request carries (contract "Cart sessions"): header
 * `X-Shop-Session`, `session_id` in the body or query (cross-origin clients),
 * else the HttpOnly cookie `shop_cart`.
 */
export function cartSession(request: FastifyRequest): cart.CartSession {
  const header = request.headers['x-shop-session'];
  const body = (request.body ?? {}) as { session_id?: unknown };
  const query = (request.query ?? {}) as { session_id?: unknown };
  const pick = [header, body.session_id, query.session_id, request.cookies?.[CART_COOKIE]].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  return { token: pick && pick.length <= 128 ? pick : '' };
}

/** Hands the guest token back (cookie + header), or forgets it once merged into a customer's cart. */
export function applySession(request: FastifyRequest, reply: FastifyReply, outcome: cart.SessionOutcome | undefined): void {
  const options = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
  if (outcome?.token) {
    reply.header('X-Shop-Session', outcome.token);
    // A new token (or one the cookie does not hold yet) is set as the cookie; a client naming its cart by
    // X-Shop-Session or session_id keeps it that way (no Set-Cookie on every response, so its reads stay cacheable).
    const carried = cartSession(request).token;
    if (request.cookies?.[CART_COOKIE] !== outcome.token && carried !== outcome.token) {
      reply.setCookie(CART_COOKIE, outcome.token, { ...options, maxAge: YEAR_S });
    }
  } else if (outcome?.clear && request.cookies?.[CART_COOKIE]) {
    reply.clearCookie(CART_COOKIE, options);
  }
}
