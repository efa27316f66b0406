import type { EntityManager } from '@mikro-orm/postgresql';
import { escapeLike, type Reader } from '@storefront/persistence';
import { ADDRESS_FIELDS, User, type AddressFields } from './entities';

export const EMPTY_ADDRESS = Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, ''])) as AddressFields;

export function findUserById(em: EntityManager, id: number): Promise<User | null> {
  return em.findOne(User, { id });
}

/** By login or email, case-insensitively. */
export async function findUserByIdentifier(em: EntityManager, identifier: string): Promise<User | null> {
  const needle = identifier.trim().toLowerCase();
  if (!needle) return null;
  const rows = await em.execute(
    `select * from "customers"."users" where lower(login) = ? or lower(email) = ? order by (lower(login) = ?) desc limit 1`,
    [needle, needle, needle],
  );
  return rows[0] ? em.map(User, rows[0]) : null;
}

export async function emailInUse(em: EntityManager, email: string, exceptUserId = 0): Promise<boolean> {
  const rows = await em.execute(`select 1 from "customers"."users" where lower(email) = ? and id <> ? limit 1`, [
    email.trim().toLowerCase(),
    exceptUserId,
  ]);
  return rows.length > 0;
}

export async function loginInUse(em: EntityManager, login: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from "customers"."users" where lower(login) = ? limit 1`, [
    login.toLowerCase(),
  ]);
  return rows.length > 0;
}

/** Logins starting with `base`, to pick the next free numeric suffix in one query. */
export async function loginsLike(em: EntityManager, base: string): Promise<string[]> {
  const escaped = escapeLike(base.toLowerCase());
  const rows = await em.execute<{ login: string }[]>(
    `select lower(login) as login from "customers"."users" where lower(login) like ?`,
    [`${escaped}%`],
  );
  return rows.map((r) => r.login);
}

export interface UserListQuery {
  page: number;
  perPage: number;
  search: string;
  orderby: 'id' | 'name' | 'username' | 'email' | 'registered_date' | 'include';
  order: 'asc' | 'desc';
  include: number[];
  exclude: number[];
  /** Empty: any role. */
  roles: string[];
}

const ORDER_COLUMNS: Record<UserListQuery['orderby'], string> = {
  id: 'id',
  name: 'lower(display_name)',
  username: 'lower(login)',
  email: 'lower(email)',
  registered_date: 'registered_at',
  include: 'id',
};

/** One page of users and the total matching count, in two bounded queries. */
export async function listUsers(em: EntityManager, q: UserListQuery): Promise<{ users: User[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    const like = `%${escapeLike(q.search.toLowerCase())}%`;
    where.push(
      `(lower(login) like ? or lower(email) like ? or lower(display_name) like ? or lower(first_name || ' ' || last_name) like ?)`,
    );
    params.push(like, like, like, like);
  }
  if (q.include.length) {
    where.push(`id in (?)`);
    params.push(q.include);
  }
  if (q.exclude.length) {
    where.push(`id not in (?)`);
    params.push(q.exclude);
  }
  if (q.roles.length) {
    where.push(`jsonb_exists_any(roles, ?::text[])`);
    params.push(`{${q.roles.map((r) => `"${r.replace(/["\\]/g, '')}"`).join(',')}}`);
  }
  const clause = where.length ? `where ${where.join(' and ')}` : '';
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from "customers"."users" ${clause}`,
    params,
  );
  const order =
    q.orderby === 'include' && q.include.length
      ? `array_position(array[${q.include.map(Number).join(',')}]::int[], id)`
      : `${ORDER_COLUMNS[q.orderby]} ${q.order}, id ${q.order}`;
  const rows = await em.execute(
    `select * from "customers"."users" ${clause} order by ${order} limit ? offset ?`,
    [...params, q.perPage, (q.page - 1) * q.perPage],
  );
  return { users: rows.map((row) => em.map(User, row)), total: Number(count) };
}

/** Removes what only lets the user sign in (sessions, application passwords, reset keys) before the account goes. */
export async function deleteUserCredentials(em: EntityManager, userId: number): Promise<void> {
  await em.execute(`delete from "customers"."sessions" where user_id = ?`, [userId]);
  await em.execute(`delete from "customers"."application_passwords" where user_id = ?`, [userId]);
  await em.execute(`delete from "customers"."password_reset_keys" where user_id = ?`, [userId]);
}

export async function existingUserIds(em: EntityManager, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ id: number }[]>(`select id from "customers"."users" where id in (?)`, [ids]);
  return rows.map((r) => Number(r.id));
}

/**
 * A user read on the hot path (dashboard reads): a prepared statement on the
 * read pool, mapped to a plain object, no unit of work. Writes load through
 * the EntityManager instead.
 */
export async function readUserById(reader: Reader, id: number): Promise<User | null> {
  const [row] = await reader.query<Record<string, any>>(`select * from "customers"."users" where id = ?`, [id]);
  return row ? userFromRow(row) : null;
}

function userFromRow(row: Record<string, any>): User {
  return {
    id: Number(row.id),
    login: row.login,
    email: row.email,
    passwordHash: row.password_hash,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: row.display_name,
    roles: row.roles,
    registeredAt: new Date(row.registered_at),
    modifiedAt: new Date(row.modified_at),
    billing: row.billing,
    shipping: row.shipping,
    meta: row.meta,
    subscribeToEmail: row.subscribe_to_email,
    orderEmail: row.order_email,
    marketingEmail: row.marketing_email,
    dataSharingConsent: row.data_sharing_consent,
    profilingConsent: row.profiling_consent,
    totalOrders: Number(row.total_orders),
    totalSpent: String(row.total_spent),
    totalDownloads: Number(row.total_downloads),
  } as User;
}

/** Replaces a user's password hash (transparent rehash at a higher cost). */
export async function updatePasswordHash(em: EntityManager, userId: number, passwordHash: string): Promise<void> {
  await em.execute(`update "customers"."users" set password_hash = ? where id = ?`, [passwordHash, userId]);
}
