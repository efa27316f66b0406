import { invalidParams } from '@storefront/errors';
import { POST_STATUSES, type PostStatus } from '../../persistence/post-list-query';

export { POST_STATUSES, type PostStatus };

/** Statuses a write may set; `trash` is reached only through DELETE. */
export const WRITABLE_STATUSES: readonly PostStatus[] = ['publish', 'draft', 'pending', 'private'];

/** Statuses that make an item visible beyond its editors, so setting them needs the publish capability. */
export const PUBLISHING_STATUSES: readonly PostStatus[] = ['publish', 'private'];

export function isPostStatus(value: string): value is PostStatus {
  return (POST_STATUSES as readonly string[]).includes(value);
}

/** A collection's `status` parameter: empty means publish; `any` means every status but trash. */
export function parseStatusFilter(values: readonly string[]): PostStatus[] {
  const requested = values.map((s) => s.trim()).filter(Boolean);
  if (!requested.length) return ['publish'];
  const unknown = requested.filter((s) => s !== 'any' && !isPostStatus(s));
  if (unknown.length) throw invalidParams({ status: `Unknown status(es): ${unknown.join(', ')}.` });
  const statuses = requested.flatMap((s) => (s === 'any' ? POST_STATUSES.filter((x) => x !== 'trash') : [s]));
  return [...new Set(statuses)] as PostStatus[];
}

export function requireWritableStatus(value: string): PostStatus {
  if (!(WRITABLE_STATUSES as readonly string[]).includes(value)) {
    throw invalidParams({ status: `status must be one of ${WRITABLE_STATUSES.join(', ')}.` });
  }
  return value as PostStatus;
}
