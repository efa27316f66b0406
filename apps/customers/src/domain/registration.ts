import { conflict, forbidden } from '@storefront/errors';
import { isUniqueViolation } from '@storefront/persistence';
import { DomainError } from '@storefront/errors';
import { emailInUse } from '../persistence/users.repository';
import { insertAccount, loginFromEmail, recordCustomerCreated } from './accounts';
import { principalOf, type Principal } from './principal';
import { defaultRedirect } from './redirects';
import { CUSTOMER_ROLE } from '@storefront/access';
import { readSiteOptions } from './site-options';
import { Sessions, type OpenedSession } from './sessions';
import { requireEmail, requirePasswordLength } from './validation';
import type { CustomersDeps } from './deps';

export interface RegistrationInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  autoLogin: boolean;
}

export interface RegistrationResult {
  principal: Principal;
  session?: OpenedSession;
  redirectUrl: string;
}

/** Storefront self-registration of a customer account. */
export class RegistrationService {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
  ) {}

  async register(input: RegistrationInput): Promise<RegistrationResult> {
    const email = requireEmail(input.email);
    const site = await readSiteOptions(this.deps.db.em(), this.deps.config);
    if (!site.users_can_register) {
      throw forbidden('shop_registration_closed', 'User registration is currently not allowed.');
    }
    requirePasswordLength(input.password, this.deps.config.SHOP_MIN_PASSWORD_LENGTH);
    const taken = () => conflict('shop_register_email_taken', 'An account is already registered with this email address.');
    if (await emailInUse(this.deps.db.em(), email)) throw taken();

    // A concurrent registration may take the derived login first: try the next suffix.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.create(input, email, site.site_url);
      } catch (err) {
        const emailClash = DomainError.is(err) && err.code === 'existing_user_email';
        if (emailClash || (isUniqueViolation(err, 'users_email_lower_unique'))) throw taken();
        const loginClash = DomainError.is(err) && err.code === 'existing_user_login';
        if (!loginClash || attempt >= 5) throw err;
      }
    }
  }

  private create(input: RegistrationInput, email: string, siteUrl: string): Promise<RegistrationResult> {
    return this.deps.db.em().transactional(async (em) => {
      const user = await this.insert(em, input, email);
      recordCustomerCreated(em, user, 'registration');
      const session = input.autoLogin ? this.sessions.open(em, user.id, false) : undefined;
      return { principal: principalOf(user), session, redirectUrl: defaultRedirect(siteUrl, false) };
    });
  }

  private async insert(em: Parameters<typeof insertAccount>[0], input: RegistrationInput, email: string) {
    return insertAccount(em, this.deps, {
      login: await loginFromEmail(em, email),
      email,
      password: input.password,
      firstName: input.firstName,
      lastName: input.lastName,
      roles: [CUSTOMER_ROLE],
    });
  }
}
