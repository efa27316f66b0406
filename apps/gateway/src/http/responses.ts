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
