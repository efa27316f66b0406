import type { CallerContext } from '@storefront/grpc-client';
import type { Actor } from '../../domain/actor';

/** The cart's own identity when it asks another service something on nobody's behalf. */
export const SERVICE_CALLER: CallerContext = { userId: 0, login: '', roles: [], capabilities: [], requestId: 'cart' };

export function callerOf(actor: Actor): CallerContext {
  return { ...actor };
}
