export { DomainError, type ErrorData } from './domain-error';
export {
  badRequest,
  invalidParams,
  missingParams,
  notFound,
  conflict,
  unprocessable,
  unauthorized,
  forbidden,
  gone,
  tooManyRequests,
  internalError,
} from './factories';
export { toErrorBody, type ErrorBody } from './error-body';
export { REPLAYED_ERROR, replayedError, isReplayedError } from './replay';
export { canonicalJson, requestFingerprint } from './fingerprint';
export { isValidIdempotencyKey } from './idempotency-key';
export { isEmailAddress } from './email';
