import { unauthorized } from '@storefront/errors';
import { findUserByIdentifier, updatePasswordHash } from '../persistence/users.repository';
import { decoyHash, hashPassword, needsRehash, verifyPassword, scryptParams } from './passwords';
import { principalOf, type Principal } from './principal';
import { credentialLimits, FailureRateLimiter } from './rate-limiter';
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
    const account = user ? String(user.id) : input.identifier.trim().toLowerCase();
    const accountScope = `account:${account}`;
    const scopes = credentialLimits(config, account, input.clientIp);
    // Check and record in one locked step, before the (slow) password check.
    const attempt = await this.limiter.admit(em, scopes, now);

    // Same scrypt cost whether or not the account exists: no user enumeration by timing.
    const valid = user
      ? await verifyPassword(input.password, user.passwordHash)
      : await verifyPassword(input.password, await this.decoyHash()).then(() => false);
    if (!user || !valid) {
      throw unauthorized('shop_auth_failed', 'The username or password you entered is incorrect.');
    }

    // Hashes made with other scrypt parameters than today's are rehashed while the password is at hand.
    const rehashed = needsRehash(user.passwordHash, scryptParams(config)) ? await hashPassword(input.password, scryptParams(config)) : undefined;
    return em.transactional(async (tx) => {
      await attempt.succeeded(tx);
      await this.limiter.reset(tx, accountScope);
      if (rehashed) await updatePasswordHash(tx, user.id, rehashed);
      const session = this.sessions.open(tx, user.id, input.remember);
      const site = await readSiteOptions(tx, config);
      const fallback = defaultRedirect(site.site_url, user.roles.includes(ADMIN_ROLE));
      return { session, principal: principalOf(user), redirectUrl: safeRedirect(input.redirectTo, site.site_url, fallback) };
    });
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= decoyHash(scryptParams(this.deps.config));
    return this.decoy;
  }
}
