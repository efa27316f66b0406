import { randomBytes } from 'node:crypto';
import { DomainError } from '@storefront/errors';
import { findUserByIdentifier } from '../persistence/users.repository';
import { insertAccount } from './accounts';
import { ADMIN_ROLE } from '@storefront/access';
import type { CustomersDeps } from './deps';

/**
 * Creates the first administrator from SHOP_ADMIN_* when no user has that
 * login (idempotent, safe across replicas). Returns the generated password
 * when one had to be made up, so the caller can print it once.
 */
export async function bootstrapAdmin(deps: CustomersDeps): Promise<{ created: boolean; generatedPassword?: string }> {
  const { SHOP_ADMIN_USER: login, SHOP_ADMIN_EMAIL: email, SHOP_ADMIN_PASSWORD: configured } = deps.config;
  const em = deps.db.em();
  if (await findUserByIdentifier(em, login)) return { created: false };
  const password = configured ?? randomBytes(12).toString('base64url');
  try {
    await em.transactional((tx) => insertAccount(tx, deps, { login, email, password, roles: [ADMIN_ROLE], displayName: login }));
  } catch (err) {
    if (DomainError.is(err)) return { created: false }; // another replica created it first
    throw err;
  }
  return { created: true, generatedPassword: configured ? undefined : password };
}
