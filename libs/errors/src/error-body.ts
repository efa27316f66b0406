import { DomainError } from './domain-error';

/** The spec's serialized error object; `data.status` always equals the HTTP status. */
export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; [key: string]: unknown };
}

export function toErrorBody(err: DomainError): ErrorBody {
  return { code: err.code, message: err.message, data: { ...err.data, status: err.status } };
}
