import type { FastifyRequest } from 'fastify';
import { invalidParams, isValidIdempotencyKey } from '@storefront/errors';

/** The request's `Idempotency-Key` ('' without one); 400 `rest_invalid_param` when it breaks the contract's rule. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.caller.idempotencyKey;
  if (key === undefined) return '';
  if (!isValidIdempotencyKey(key)) throw invalidParams({ 'Idempotency-Key': 'Idempotency-Key must be 1 to 255 printable characters.' });
  return key;
}
