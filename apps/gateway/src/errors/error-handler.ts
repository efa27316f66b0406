import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, isReplayedError, toErrorBody } from '@storefront/errors';
import { validationError } from './validation-errors';

/** The host platform's answer to a URL and method no route serves. */
export const noRoute = () => new DomainError('rest_no_route', 404, 'No route was found matching the URL and request method.');

/** Sends the spec's error object; `data.status` equals the HTTP status. */
export function sendError(reply: FastifyReply, err: DomainError, request?: FastifyRequest): FastifyReply {
  const retryAfter = err.data.retry_after;
  if (err.status === 429 && retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
  // The first answer of an Idempotency-Key, an error this time, replayed (as the success path marks it).
  if (isReplayedError(err) && request?.caller?.idempotencyKey) reply.header('Idempotent-Replayed', 'true');
  return reply.code(err.status).type('application/json; charset=utf-8').send(toErrorBody(err));
}

const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'rest_request_body_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'rest_unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'rest_invalid_body', 'The request body length does not match Content-Length.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'rest_invalid_json', 'Invalid JSON body passed.'],
};

/** Every failure, including framework ones, leaves as the spec's error object without stacks or SQL. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (DomainError.is(error)) return sendError(reply, error, request);
    if (error.validation) return sendError(reply, validationError(error.validation, error.validationContext ?? 'body'));
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, new DomainError(known[1], known[0], known[2]));
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
      return sendError(reply, new DomainError('rest_invalid_json', 400, 'Invalid JSON body passed.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, new DomainError('rest_bad_request', status, 'The request could not be processed.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new DomainError('shop_internal_error', 500, 'Internal server error.'));
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, noRoute()));
}
