import { DomainError } from './domain-error';
import { REPLAYED_ERROR } from './replay';

/** The spec's serialized error object; `data.status` always equals the HTTP status. */
export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; [key: string]: unknown };
}

export function toErrorBody(err: DomainError): ErrorBody {
  // The replay mark is a header's business (Idempotent-Replayed), not the body's.
  const { [REPLAYED_ERROR]: _replayed, ...data } = err.data;
  return { code: err.code, message: err.message, data: { ...data, status: err.status } };
}
