import { Type, type TSchema } from 'typebox';

/**
 * The spec's error object (section 7). `data` always has `status`; some
 * errors add details (`params` for validation, `retry_after` for 429).
 */
export const ErrorObject = Type.Object(
  {
    code: Type.String({ description: 'Stable, machine-readable error code.' }),
    message: Type.String({ description: 'Human-readable, translatable message.' }),
    data: Type.Object({ status: Type.Integer({ description: 'Equals the HTTP status.' }) }, { additionalProperties: true }),
  },
  { title: 'Error', additionalProperties: false },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request parameters.',
  401: 'Not signed in, or bad credentials.',
  403: 'Signed in without the needed capability.',
  404: 'Not found (or not the caller\'s).',
  409: 'Conflict with the current state.',
  410: 'Gone (expired or exhausted).',
  413: 'Request too large.',
  415: 'Unsupported media type.',
  422: 'Refused by a domain rule.',
  429: 'Rate limited; see Retry-After.',
  500: 'Unexpected server error.',
  501: 'Not supported.',
  503: 'The owning service is unavailable.',
};

/** Error responses a route can return, for `schema.response` (statuses without a description get a generic one). */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    out[status] = Type.Unsafe({ ...ErrorObject, description: DESCRIPTIONS[status] ?? 'Error.' });
  }
  return out;
}

/** `_links` of a resource (HAL-like: relation -> list of `{href, ...}`). */
export const LinksSchema = Type.Record(
  Type.String(),
  Type.Array(Type.Object({ href: Type.String() }, { additionalProperties: true })),
  { readOnly: true, description: 'Related resources, by relation.' },
);

/** `{deleted: true, previous}`: what a permanent DELETE answers. */
export const DeletedSchema = <T extends TSchema>(previous: T, title: string) =>
  Type.Object({ deleted: Type.Boolean(), previous }, { title });

/** `{message}` answers of actions. */
export const MessageSchema = Type.Object({ message: Type.String() }, { title: 'Message' });

/**
 * The documentation fields every route declares (operationId, one tag per
 * owning service, a summary) plus its responses. Usage in a route module:
 * `const doc = documented('customers')` then
 * `schema: { ...doc('listCustomers', 'List customers', { 200: Type.Array(CustomerSchema), ...errorResponses(404) }) }`.
 */
export function documented(tag: string) {
  return (operationId: string, summary: string, response: Record<number, TSchema>, description?: string) => ({
    operationId,
    tags: [tag],
    summary,
    ...(description ? { description } : {}),
    response,
  });
}
