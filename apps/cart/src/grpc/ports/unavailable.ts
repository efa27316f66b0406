import { DomainError } from '@storefront/errors';

/** A port whose service is not configured: every call is a clear 503. */
export function unavailable<T extends object>(service: string, variable: string): T {
  return new Proxy({} as T, {
    get: () => async () => {
      throw new DomainError('shop_service_unavailable', 503, `The ${service} service is not configured (${variable}).`, { service });
    },
  });
}
