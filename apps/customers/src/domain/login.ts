import { unauthorized } from '@storefront/errors';
import { findUserByIdentifier } from '../persistence/users.repository';
import { decoyHash, verifyPassword } from './passwords';
import { principalOf, type Principal } from './principal';
import { FailureRateLimiter } from './rate-limiter';
import { defaultRedirect, safeRedirect } from './redirects';
import { readSiteOptions } from './site-options';
import { Sessions, type OpenedSession } from './sessions';
import { ADMIN_ROLE } from '@storefront/access';
import type { CustomersDeps } from './deps';

export interface LoginInput {
  identifier: string;
  password: string;
  remember: boolean;
  redirectTo: string;
  clientIp?: string;
}

export interface LoginResult {
  session: OpenedSession;
  principal: Principal;
  redirectUrl: string;
}

/** Password login: rate limited on failures per account and per client IP. */
export class LoginService {
  private readonly limiter: FailureRateLimiter;
  private decoy: Promise<string> | undefined;

  constructor(
    private readonly deps: CustomersDeps,
    private readonly sessions: Sessions,
  ) {
    this.limiter = new FailureRateLimiter(deps.config.LOGIN_FAILURE_WINDOW_SECONDS, deps.config.LOGIN_RATE_LIMIT_ENABLED);
  }

  async login(input: LoginInput): Promise<LoginResult> {
    const { config } = this.deps;
    const now = this.deps.now();
    const em = this.deps.db.em();
    const user = await findUserByIdentifier(em, input.identifier);
    const accountScope = `account:${user ? user.id : input.identifier.trim().toLowerCase()}`;
    const scopes = [
      { scope: accountScope, max: config.LOGIN_MAX_FAILURES_PER_ACCOUNT },
      ...(input.clientIp ? [{ scope: `ip:${input.clientIp}`, max: config.LOGIN_MAX_FAILURES_PER_IP }] : []),
    ];
    await this.limiter.assertAllowed(em, scopes, now);

    // Same scrypt cost whether or not the account exists: no user enumeration by timing.
    const valid = user
      ? await verifyPassword(input.password, user.passwordHash)
      : await verifyPassword(input.password, await this.decoyHash()).then(() => false);
    if (!user || !valid) {
      await this.limiter.recordFailure(em, scopes.map((s) => s.scope), now);
      throw unauthorized('shop_auth_failed', 'The username or password you entered is incorrect.');
    }

    return em.transactional(async (tx) => {
      await this.limiter.reset(tx, accountScope);
      const session = this.sessions.open(tx, user.id, input.remember);
      const site = await readSiteOptions(tx, config);
      const fallback = defaultRedirect(site.site_url, user.roles.includes(ADMIN_ROLE));
      return { session, principal: principalOf(user), redirectUrl: safeRedirect(input.redirectTo, site.site_url, fallback) };
    });
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= decoyHash(this.deps.config.SCRYPT_COST);
    return this.decoy;
  }
}
