import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, invalidParams, notFound, unauthorized } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { ErasureRequest, User, type AddressFields } from '../persistence/entities';
import { emailInUse, readUserById } from '../persistence/users.repository';
import { hashPassword, verifyPassword, scryptParams } from './passwords';
import { Sessions } from './sessions';
import { dashboardMenu, type MenuItem } from './menu';
import { readSiteOptions } from './site-options';
import { isEmail, requireEmail, requirePasswordLength } from './validation';
import type { CustomersDeps } from './deps';
import { credentialLimits, FailureRateLimiter } from './rate-limiter';

export type AddressKind = 'billing' | 'shipping';

/**
 * The one check of an address kind. The spec's route exists only as
 * `/me/addresses/<billing or shipping>`, so any other kind is the REST
 * "no route" 404 (not a 400): the gateway forwards the path segment and this
 * is where it is refused.
 */
export function addressKind(kind: string): AddressKind {
  if (kind === 'billing' || kind === 'shipping') return kind;
  throw notFound('rest_no_route', 'No route was found matching the URL and request method.');
}

/** An address counts as given once it has a street, city or postcode. */
export function hasAddress(address: AddressFields): boolean {
  return Boolean(address.address_1 || address.city || address.postcode);
}

/** Gravatar URL of an email (the host platform's avatar rule). */
export function avatarUrl(email: string): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`;
}

export interface ProfilePatch {
  firstName?: string;
  lastName?: string;
  displayName?: string;
  email?: string;
  subscribeToEmail?: boolean;
}

export interface NotificationPatch {
  subscribeToEmail?: boolean;
  orderEmail?: boolean;
  marketingEmail?: boolean;
}

export interface PrivacyPatch {
  dataSharingConsent?: boolean;
  profilingConsent?: boolean;
}

/** The signed-in user's own account: profile, password, addresses, preferences, erasure. */
export class ProfileService {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
    private readonly addons: string[] = [],
  ) {}

  /**
   * The signed-in caller's account. The gateway's `logged_in` tier refuses
   * guests before any call; this is the service's one check that the caller
   * (a guest id, or an account deleted since the session began) has an account.
   */
  async get(userId: number): Promise<User> {
    return signedIn(userId > 0 ? await readUserById(this.deps.db.reader, userId) : null);
  }

  /** The dashboard sidebar of a signed-in caller. */
  async menu(userId: number): Promise<MenuItem[]> {
    await this.get(userId);
    const site = await readSiteOptions(this.deps.db.em(), this.deps.config);
    return dashboardMenu(site.site_url, this.addons);
  }

  update(userId: number, patch: ProfilePatch): Promise<User> {
    return this.change(userId, async (em, user) => {
      if (patch.email !== undefined) {
        const email = requireEmail(patch.email);
        if (await emailInUse(em, email, userId)) {
          throw conflict('shop_rest_email_taken', 'This email address is already used by another account.');
        }
        user.email = email;
      }
      if (patch.firstName !== undefined) user.firstName = patch.firstName.trim();
      if (patch.lastName !== undefined) user.lastName = patch.lastName.trim();
      if (patch.displayName !== undefined) user.displayName = patch.displayName.trim() || user.login;
      if (patch.subscribeToEmail !== undefined) user.subscribeToEmail = patch.subscribeToEmail;
    });
  }

  /** Checks the current password, sets the new one and ends the user's other sessions. */
  async changePassword(userId: number, current: string, next: string, keepSessionToken?: string, clientIp?: string): Promise<void> {
    requirePasswordLength(next, 8, 'new_password');
    const { config } = this.deps;
    // A wrong current password counts like a failed login (same limits, same atomic check).
    const limiter = new FailureRateLimiter(config.LOGIN_FAILURE_WINDOW_SECONDS, config.LOGIN_RATE_LIMIT_ENABLED);
    const attempt = await limiter.admit(this.deps.db.em(), credentialLimits(config, String(userId), clientIp), this.deps.now());
    const nextHash = await hashPassword(next, scryptParams(config));
    await this.change(userId, async (em, user) => {
      if (!(await verifyPassword(current, user.passwordHash))) {
        throw badRequest('shop_rest_bad_password', 'The current password is incorrect.');
      }
      await attempt.succeeded(em);
      user.passwordHash = nextHash;
      await this.sessions.endAllOf(em, userId, keepSessionToken);
    });
  }

  /** Patches the billing or shipping address (`kind` is checked here, once). */
  async updateAddress(userId: number, kind: string, patch: Partial<AddressFields>): Promise<AddressFields> {
    const which = addressKind(kind);
    if (patch.email !== undefined && patch.email !== '' && !isEmail(patch.email.trim())) {
      throw invalidParams({ email: 'email is not a valid email address.' });
    }
    const user = await this.change(userId, async (_em, user) => {
      user[which] = { ...user[which], ...trimAll(patch) };
    });
    return user[which];
  }

  /**
   * orders.order_placed of a storefront checkout (inside the consumer's
   * transaction): the customer's billing and shipping addresses become the
   * ones the order was placed with, as the host platform's checkout saves
   * them, so the next checkout and `/me/addresses` start from them. An
   * address the checkout did not ask for (no shipping needed) is left as it was.
   */
  async rememberCheckoutAddresses(em: EntityManager, userId: number, placed: Partial<Record<AddressKind, Partial<AddressFields>>>): Promise<boolean> {
    const user = userId > 0 ? await em.findOne(User, { id: userId }) : null;
    if (!user) return false;
    let changed = false;
    for (const kind of ['billing', 'shipping'] as const) {
      const address = placed[kind];
      if (!address || !Object.values(address).some((v) => v?.trim())) continue;
      user[kind] = { ...user[kind], ...trimAll(address) };
      changed = true;
    }
    if (changed) {
      user.modifiedAt = this.deps.now();
      recordEvent(em, CustomerEvents.customerUpdated, { userId });
    }
    return changed;
  }

  updateNotifications(userId: number, patch: NotificationPatch): Promise<User> {
    return this.change(userId, async (em, user) => {
      if (patch.subscribeToEmail !== undefined) user.subscribeToEmail = patch.subscribeToEmail;
      if (patch.orderEmail !== undefined) user.orderEmail = patch.orderEmail;
      if (patch.marketingEmail !== undefined) user.marketingEmail = patch.marketingEmail;
      // With the change: notifications keeps who opted out of order emails.
      recordEvent(em, CustomerEvents.emailPreferencesChanged, {
        userId,
        subscribeToEmail: user.subscribeToEmail,
        orderEmail: user.orderEmail,
        marketingEmail: user.marketingEmail,
        changedAt: this.deps.now(),
      });
    });
  }

  updatePrivacy(userId: number, patch: PrivacyPatch): Promise<User> {
    return this.change(userId, async (_em, user) => {
      if (patch.dataSharingConsent !== undefined) user.dataSharingConsent = patch.dataSharingConsent;
      if (patch.profilingConsent !== undefined) user.profilingConsent = patch.profilingConsent;
    });
  }

  /** Records an erasure request and publishes erase_requested for the services holding personal data. */
  requestErasure(userId: number): Promise<ErasureRequest> {
    return this.deps.db.em().transactional(async (em) => {
      const user = await this.load(em, userId);
      const request = em.create(ErasureRequest, {
        id: randomUUID(),
        userId,
        status: 'requested',
        createdAt: this.deps.now(),
      });
      recordEvent(em, CustomerEvents.erasureRequested, { requestId: request.id, userId, email: user.email });
      return request;
    });
  }

  private async change(userId: number, apply: (em: EntityManager, user: User) => Promise<void>): Promise<User> {
    return this.deps.db.em().transactional(async (em) => {
      const user = await this.load(em, userId);
      await apply(em, user);
      user.modifiedAt = this.deps.now();
      recordEvent(em, CustomerEvents.customerUpdated, { userId });
      return user;
    });
  }

  private async load(em: EntityManager, userId: number): Promise<User> {
    return signedIn(userId > 0 ? await em.findOne(User, { id: userId }) : null);
  }
}

function signedIn(user: User | null): User {
  if (!user) throw unauthorized('shop_rest_not_logged_in', 'You must be logged in.');
  return user;
}

function trimAll(patch: Partial<AddressFields>): Partial<AddressFields> {
  return Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]));
}
