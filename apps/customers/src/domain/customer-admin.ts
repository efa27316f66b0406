import { randomBytes } from 'node:crypto';
import { badRequest, invalidParams, notFound } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { isUniqueViolation } from '@storefront/persistence';
import { User, type AddressFields } from '../persistence/entities';
import {
  deleteUserCredentials,
  emailInUse,
  existingUserIds,
  listUsers,
  type UserListQuery,
} from '../persistence/users.repository';
import { insertAccount, recordCustomerCreated } from './accounts';
import { enqueueResetRequest } from '../persistence/password-reset.repository';
import { applyMetaUpdates, type MetaUpdate } from './meta';
import { hashPassword, scryptParams } from './passwords';
import { CUSTOMER_ROLE, isKnownRole } from '@storefront/access';
import { Sessions } from './sessions';
import { requireEmail } from './validation';
import type { CustomersDeps } from './deps';

export interface CustomerFields {
  email?: string;
  username?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  roles?: string[];
  billing?: Partial<AddressFields>;
  shipping?: Partial<AddressFields>;
  meta?: MetaUpdate[];
}

/** A list request as the caller sent it; `list` applies the defaults and bounds. */
export interface CustomerListRequest {
  page?: number;
  perPage?: number;
  search?: string;
  orderby?: string;
  order?: string;
  include?: number[];
  exclude?: number[];
  /** Empty: customers only; `all`: any role. */
  roles?: string[];
}

const ORDERBY = new Set<UserListQuery['orderby']>(['id', 'name', 'username', 'email', 'registered_date', 'include']);

/** The list rules: page from 1, 1..100 per page (10), order by name ascending, customers unless roles say otherwise. */
export function customerListQuery(req: CustomerListRequest): UserListQuery {
  const roles = req.roles?.length ? req.roles : [CUSTOMER_ROLE];
  const orderby = req.orderby as UserListQuery['orderby'];
  return {
    page: Math.max(1, req.page || 1),
    perPage: Math.min(100, Math.max(1, req.perPage || 10)),
    search: req.search ?? '',
    orderby: ORDERBY.has(orderby) ? orderby : 'name',
    order: req.order === 'desc' ? 'desc' : 'asc',
    include: req.include ?? [],
    exclude: req.exclude ?? [],
    roles: roles.includes('all') ? [] : roles,
  };
}

/** Admin CRUD of accounts (the gateway has already required manage_options). */
export class CustomerAdmin {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
  ) {}

  list(request: CustomerListRequest) {
    return listUsers(this.deps.db.em(), customerListQuery(request));
  }

  async get(id: number): Promise<User> {
    const user = await this.deps.db.em().findOne(User, { id });
    if (!user) throw notFound('rest_user_invalid_id', 'Invalid user ID.');
    return user;
  }

  async create(fields: CustomerFields & { email: string; username: string }): Promise<User> {
    const email = requireEmail(fields.email);
    const username = fields.username.trim();
    if (!/^[A-Za-z0-9 _.\-@]{1,60}$/.test(username)) {
      throw invalidParams({ username: 'username may only contain letters, numbers, spaces and _.-@ (60 at most).' });
    }
    const roles = validRoles(fields.roles?.length ? fields.roles : [CUSTOMER_ROLE]);
    return this.deps.db.em().transactional(async (em) => {
      const user = await insertAccount(em, this.deps, {
        login: username,
        email,
        password: fields.password || randomBytes(18).toString('base64url'),
        firstName: fields.firstName,
        lastName: fields.lastName,
        displayName: fields.displayName,
        roles,
        billing: fields.billing,
        shipping: fields.shipping,
        meta: applyMetaUpdates([], fields.meta ?? []),
      });
      // A generated password is never shown: the customer gets a link to set their own (the reset email).
      const generated = !fields.password;
      recordCustomerCreated(em, user, 'admin', generated);
      if (generated) await enqueueResetRequest(em, email.toLowerCase(), this.deps.now());
      return user;
    });
  }

  async update(id: number, fields: CustomerFields): Promise<User> {
    return this.deps.db.em().transactional(async (em) => {
      const user = await em.findOne(User, { id });
      if (!user) throw notFound('rest_user_invalid_id', 'Invalid user ID.');
      if (fields.username !== undefined && fields.username.trim().toLowerCase() !== user.login.toLowerCase()) {
        throw badRequest('rest_user_invalid_argument', "Username isn't editable.", { params: { username: 'username' } });
      }
      if (fields.email !== undefined) {
        const email = requireEmail(fields.email);
        if (await emailInUse(em, email, id)) throw badRequest('existing_user_email', 'Sorry, that email address is already used!');
        user.email = email;
      }
      if (fields.password) {
        user.passwordHash = await hashPassword(fields.password, scryptParams(this.deps.config));
        await this.sessions.endAllOf(em, id);
      }
      if (fields.firstName !== undefined) user.firstName = fields.firstName.trim();
      if (fields.lastName !== undefined) user.lastName = fields.lastName.trim();
      if (fields.displayName !== undefined) user.displayName = fields.displayName.trim() || user.login;
      if (fields.roles !== undefined) user.roles = validRoles(fields.roles);
      if (fields.billing) user.billing = { ...user.billing, ...fields.billing };
      if (fields.shipping) user.shipping = { ...user.shipping, ...fields.shipping };
      if (fields.meta?.length) user.meta = applyMetaUpdates(user.meta, fields.meta);
      user.modifiedAt = this.deps.now();
      recordEvent(em, CustomerEvents.customerUpdated, { userId: id });
      try {
        await em.flush();
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest('existing_user_email', 'Sorry, that email address is already used!');
        throw err;
      }
      return user;
    });
  }

  /** Permanent deletion (no trash for users); `reassign` takes over the user's records. */
  async delete(id: number, reassign: number): Promise<User> {
    return this.deps.db.em().transactional(async (em) => {
      const user = await em.findOne(User, { id });
      if (!user) throw notFound('rest_user_invalid_id', 'Invalid user ID.');
      if (reassign && (reassign === id || !(await em.findOne(User, { id: reassign })))) {
        throw badRequest('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', { params: { reassign: 'reassign' } });
      }
      await deleteUserCredentials(em, id);
      em.remove(user);
      recordEvent(em, CustomerEvents.customerDeleted, { userId: id, reassignTo: reassign });
      return user;
    });
  }

  existing(ids: number[]): Promise<number[]> {
    return existingUserIds(this.deps.db.em(), ids.filter((id) => Number.isSafeInteger(id) && id > 0));
  }
}

function validRoles(roles: string[]): string[] {
  const unknown = roles.filter((r) => !isKnownRole(r));
  if (unknown.length) throw invalidParams({ roles: `Unknown role(s): ${unknown.join(', ')}.` });
  return [...new Set(roles)];
}
