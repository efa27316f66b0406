import { DomainError } from './domain-error';

/**
 * Marks a stored error answered again for the same idempotency key. It travels
 * in `data` (over gRPC too); the gateway turns it into the header
 * `Idempotent-Replayed: true` and never shows it in the body.
 */
export const REPLAYED_ERROR = 'idempotent_replayed';

export function replayedError(err: DomainError): DomainError {
  return new DomainError(err.code, err.status, err.message, { ...err.data, [REPLAYED_ERROR]: true });
}

export function isReplayedError(err: DomainError): boolean {
  return err.data[REPLAYED_ERROR] === true;
}
