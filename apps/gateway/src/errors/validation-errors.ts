import type { FastifySchemaValidationError } from 'fastify';
import { DomainError, invalidParams, missingParams } from '@storefront/errors';

/**
 * Request-shape failures in the host platform's format: absent required
 * fields -> 400 `rest_missing_callback_param`; wrong types, ranges, formats ->
 * 400 `rest_invalid_param`; `data.params` names each field.
 */
export function validationError(errors: FastifySchemaValidationError[], part: string): DomainError {
  const missing = errors
    .filter((e) => e.keyword === 'required')
    .map((e) => joinPath(e.instancePath, String(e.params.missingProperty)));
  if (missing.length) return missingParams([...new Set(missing)]);
  // A union of literals fails once per literal (`const`): together they are the allowed values.
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) if (e.keyword === 'const') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), e.params.allowedValue]);
  const params: Record<string, string> = {};
  for (const e of errors) {
    const field = topLevelField(e.instancePath) || part;
    params[field] ??= describe(e, field, allowed.get(e.instancePath));
  }
  return invalidParams(params);
}

function joinPath(instancePath: string, property: string): string {
  const parent = instancePath.split('/').filter(Boolean);
  return parent.length ? `${parent.join('.')}.${property}` : property;
}

function topLevelField(instancePath: string): string {
  return instancePath.split('/').filter(Boolean)[0] ?? '';
}

function describe(e: FastifySchemaValidationError, field: string, allowed: unknown[] = []): string {
  const where = e.instancePath.split('/').filter(Boolean).join('.') || field;
  switch (e.keyword) {
    case 'type':
      return `${where} is not of type ${String(e.params.type)}.`;
    case 'enum':
      return `${where} is not one of ${(e.params.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `${where} is not one of ${allowed.join(', ')}.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${where} must be greater than or equal to ${String(e.params.limit)}.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${where} must be less than or equal to ${String(e.params.limit)}.`;
    case 'format':
      return `${where} is not a valid ${String(e.params.format)}.`;
    default:
      return `${where} ${e.message ?? 'is invalid'}.`;
  }
}
