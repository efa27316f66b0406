import { unauthorized } from '@storefront/errors';
import type { CallerContext } from '@storefront/grpc-client';

/** The signed-in caller's user id; `me` calls without one are refused. */
export function signedInUser(caller: CallerContext): number {
  if (caller.userId <= 0) throw unauthorized('shop_rest_not_logged_in', 'You must be logged in.');
  return caller.userId;
}
