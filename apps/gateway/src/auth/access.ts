import type { FastifyInstance } from 'fastify';
import { can, denied } from '@storefront/access';
import { DomainError } from '@storefront/errors';
import type { CallerContext } from '@storefront/grpc-client';

/**
 * Permission tiers of the spec (section 5), declared per route as
 * `config: { access }` and enforced before validation:
 * - `public`: anyone (guests included);
 * - `admin`: `manage_options`; 401 logged out / 403 under-privileged, `shop_rest_forbidden_context`;
 * - `logged_in`: the `me` routes, 401 `shop_rest_not_logged_in`;
 * - `payment_methods`: 401 `shop_payment_methods_login_required`;
 * - `platform_user`: host-platform routes for a signed-in user, 401 `rest_not_logged_in`;
 * - `{ capability }`: e.g. stock routes needing `edit_shop_products`, 401/403 `rest_forbidden`;
 * - `content`: content-type capabilities, decided by the owning service per record.
 */
export type Access =
  | 'public'
  | 'admin'
  | 'logged_in'
  | 'payment_methods'
  | 'platform_user'
  | 'content'
  | { capability: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export { can } from '@storefront/access';

export function checkAccess(access: Access, caller: CallerContext): void {
  const signedIn = caller.userId > 0;
  if (access === 'public' || access === 'content') return;
  if (access === 'admin') {
    if (!can(caller, 'manage_options')) {
      throw denied(caller, 'shop_rest_forbidden_context', 'Sorry, you are not allowed to access this resource.');
    }
    return;
  }
  if (access === 'logged_in' && !signedIn) {
    throw new DomainError('shop_rest_not_logged_in', 401, 'You must be logged in to access this resource.');
  }
  if (access === 'payment_methods' && !signedIn) {
    throw new DomainError('shop_payment_methods_login_required', 401, 'You must be logged in to manage payment methods.');
  }
  if (access === 'platform_user' && !signedIn) {
    throw new DomainError('rest_not_logged_in', 401, 'You are not currently logged in.');
  }
  if (typeof access === 'object' && !can(caller, access.capability)) {
    throw denied(caller, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
  }
}

/** Every route must declare its tier; the check runs before body/query validation. */
export function installAccessControl(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (route.method === 'OPTIONS' || route.method === 'HEAD') return;
    if (!route.config?.access && !url.startsWith('/docs')) {
      throw new Error(`Route ${String(route.method)} ${url} declares no access tier`);
    }
  });
  // Before the body is read: a caller without access hears 401/403, never the body's 415 or 400 first.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const access = request.routeOptions.config.access;
    if (access) checkAccess(access, request.caller);
    done(null, payload);
  });
}
