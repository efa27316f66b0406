import { DomainError, type ErrorData } from './domain-error';

// Small constructors for the statuses the spec uses, so call sites read as rules.

export const badRequest = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 400, message, data);

/** Host-platform convention for a value that fails validation: 400 `rest_invalid_param`, `data.params` names each field. */
export function invalidParams(params: Record<string, string>): DomainError {
  const names = Object.keys(params).join(', ');
  return new DomainError('rest_invalid_param', 400, `Invalid parameter(s): ${names}`, { params });
}

/** Host-platform convention for absent required fields: 400 `rest_missing_callback_param`. */
export function missingParams(names: string[]): DomainError {
  return new DomainError('rest_missing_callback_param', 400, `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });
}

export const notFound = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 404, message, data);
export const conflict = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 409, message, data);
export const unprocessable = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 422, message, data);
export const unauthorized = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 401, message, data);
export const forbidden = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 403, message, data);
export const gone = (code: string, message: string, data?: ErrorData) =>
  new DomainError(code, 410, message, data);
export const tooManyRequests = (code: string, message: string, retryAfterSeconds: number) =>
  new DomainError(code, 429, message, { retry_after: retryAfterSeconds });
export const internalError = (message = 'Internal server error.') =>
  new DomainError('shop_internal_error', 500, message);
