import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { isUniqueViolation } from '@storefront/persistence';
import { User, type AddressFields, type MetaFieldRow } from '../persistence/entities';
import { EMPTY_ADDRESS, loginsLike } from '../persistence/users.repository';
import { hashPassword, scryptParams } from './passwords';
import type { CustomersDeps } from './deps';

export interface NewAccount {
  login: string;
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  roles: string[];
  billing?: Partial<AddressFields>;
  shipping?: Partial<AddressFields>;
  meta?: MetaFieldRow[];
}

/** Inserts a user (flushes); maps the unique indexes to the host platform's errors. */
export async function insertAccount(em: EntityManager, deps: CustomersDeps, account: NewAccount): Promise<User> {
  const now = deps.now();
  const first = account.firstName?.trim() ?? '';
  const last = account.lastName?.trim() ?? '';
  const user = em.create(User, {
    login: account.login,
    email: account.email,
    passwordHash: await hashPassword(account.password, scryptParams(deps.config)),
    firstName: first,
    lastName: last,
    displayName: account.displayName?.trim() || [first, last].filter(Boolean).join(' ') || account.login,
    roles: account.roles,
    registeredAt: now,
    modifiedAt: now,
    billing: { ...EMPTY_ADDRESS, ...account.billing },
    shipping: { ...EMPTY_ADDRESS, ...account.shipping },
    meta: account.meta ?? [],
  });
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_lower_unique')) {
      throw badRequest('existing_user_email', 'Sorry, that email address is already used!');
    }
    if (isUniqueViolation(err)) throw badRequest('existing_user_login', 'Sorry, that username already exists!');
    throw err;
  }
  return user;
}

/** A login made from an email's local part; taken ones get the next free numeric suffix (john, john1, john2...). */
export async function loginFromEmail(em: EntityManager, email: string): Promise<string> {
  const local = email.split('@')[0] ?? '';
  const base = local.toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 50) || 'customer';
  const taken = new Set(await loginsLike(em, base));
  if (!taken.has(base)) return base;
  for (let n = 1; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

/** customer_created (welcome email, stats), in the transaction that created the account. */
export function recordCustomerCreated(em: EntityManager, user: User, source: 'registration' | 'admin', passwordGenerated = false): void {
  recordEvent(em, CustomerEvents.customerCreated, {
    userId: user.id,
    email: user.email,
    login: user.login,
    firstName: user.firstName,
    lastName: user.lastName,
    source,
    passwordGenerated,
  });
}
