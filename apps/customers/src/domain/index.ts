import { ApplicationPasswords } from './application-passwords';
import { CustomerAdmin } from './customer-admin';
import { LoginService } from './login';
import { PasswordResetService } from './password-reset';
import { ProfileService } from './profile';
import { PublishableKeys } from './publishable-keys';
import { RegistrationService } from './registration';
import { Sessions } from './sessions';
import { SiteSettings } from './site-options';
import type { CustomersDeps } from './deps';

export type { CustomersDeps } from './deps';

/** The customers domain, wired once per service instance. */
export function createCustomersDomain(deps: CustomersDeps, addons: string[] = []) {
  const sessions = new Sessions(deps);
  return {
    deps,
    sessions,
    login: new LoginService(deps, sessions),
    registration: new RegistrationService(deps, sessions),
    passwordReset: new PasswordResetService(deps, sessions),
    applicationPasswords: new ApplicationPasswords(deps),
    publishableKeys: new PublishableKeys(deps),
    admin: new CustomerAdmin(deps, sessions),
    profile: new ProfileService(deps, sessions, addons),
    site: new SiteSettings(deps, addons),
  };
}
export type CustomersDomain = ReturnType<typeof createCustomersDomain>;
