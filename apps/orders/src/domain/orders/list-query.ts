import { createHash } from 'node:crypto';
import type { OrderVersion } from '../../persistence/orders.repository';
import { invalidOrderInput } from '../errors';
import { invalidStatus, isOrderStatus, type OrderStatus } from '../status/order-states';
import type { OrderListQuery, OrderSort } from './order-types';

const SORTS: OrderSort[] = ['id', 'date', 'date_modified', 'total', 'status'];
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * `after` / `before` (inclusive): a date alone covers its whole day (UTC); a
 * date-time without zone is UTC. Anything else: 400 rest_invalid_param.
 */
export function parseBound(value: string | undefined, name: 'after' | 'before'): Date | null {
  if (value === undefined || value === '') return null;
  const text = value.trim();
  let date: Date;
  if (DATE_ONLY.test(text)) {
    date = new Date(`${text}T00:00:00.000Z`);
    if (name === 'before' && !Number.isNaN(date.getTime())) date = new Date(date.getTime() + 86_400_000 - 1);
  } else if (DATE_TIME.test(text)) {
    const iso = text.replace(' ', 'T');
    date = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
  } else {
    throw invalidOrderInput({ [name]: `"${value}" is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).` });
  }
  // The calendar date must exist (2024-02-30 would roll over); checked on its own, since an offset may move the UTC day.
  const day = text.slice(0, 10);
  const calendar = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || Number.isNaN(calendar.getTime()) || calendar.toISOString().slice(0, 10) !== day) {
    throw invalidOrderInput({ [name]: `"${value}" is not a valid date.` });
  }
  return date;
}

export function parseListQuery(req: {
  page: number;
  perPage: number;
  statuses: string[];
  customerId: number;
  /** customerId applies even when 0 (guests' orders). */
  filterCustomer?: boolean;
  after?: string;
  before?: string;
  search: string;
  orderby: string;
  order: string;
  offset: number;
}): OrderListQuery {
  for (const s of req.statuses) if (!isOrderStatus(s)) throw invalidStatus(s);
  const orderby = (req.orderby || 'date') as OrderSort;
  if (!SORTS.includes(orderby)) throw invalidOrderInput({ orderby: `orderby must be one of ${SORTS.join(', ')}.` });
  if (req.order && req.order !== 'asc' && req.order !== 'desc') throw invalidOrderInput({ order: 'order must be asc or desc.' });
  if (req.search.includes('\u0000')) throw invalidOrderInput({ search: 'search contains a NUL character.' });
  return {
    page: Math.max(1, req.page || 1),
    perPage: Math.min(100, Math.max(1, req.perPage || 10)),
    offset: Math.max(0, req.offset || 0),
    statuses: req.statuses as OrderStatus[],
    excludeStatuses: [],
    customerId: req.filterCustomer || req.customerId ? req.customerId : null,
    after: parseBound(req.after, 'after'),
    before: parseBound(req.before, 'before'),
    search: req.search.trim(),
    orderby,
    order: (req.order || 'desc') as 'asc' | 'desc',
  };
}

/**
 * The ETag of a page of whole orders: the query, the total and each order's
 * row version (a new version comes with every write of an order or its lines).
 */
export function orderPageEtag(query: OrderListQuery, keys: readonly OrderVersion[], total: number): string {
  let text = `${JSON.stringify(query)}|${total}`;
  for (const [id, version] of keys) text += `|${id}:${version}`;
  return createHash('sha1').update(text).digest('base64url');
}
