import type { EventHandler } from '@storefront/events';
import type { customers } from '@storefront/proto/customers';
import type { NotificationsDomain } from '../domain';

/** customers.customer_created -> welcome email. */
export function onCustomerCreated(domain: NotificationsDomain): EventHandler<customers.CustomerCreated> {
  return async ({ payload }, em) => {
    if (!payload.email) return;
    await domain.emails.send(em, 'welcome', payload.email, {
      first_name: payload.firstName || payload.login,
      login: payload.login,
      account_url: new URL('/my-account/', domain.deps.config.SHOP_SITE_URL).toString(),
    });
  };
}

/** customers.password_reset_requested -> the reset link (store reset page, `key` and `login`). */
export function onPasswordResetRequested(domain: NotificationsDomain): EventHandler<customers.PasswordResetRequested> {
  return async ({ payload }, em) => {
    if (!payload.email) return;
    let link = payload.resetUrl;
    if (!link) {
      const url = new URL('/my-account/lost-password/', domain.deps.config.SHOP_SITE_URL);
      url.searchParams.set('key', payload.key);
      url.searchParams.set('login', payload.login);
      link = url.toString();
    }
    await domain.emails.send(em, 'password_reset', payload.email, {
      login: payload.login,
      reset_url: link,
      expires_at: payload.expiresAt ? payload.expiresAt.toISOString() : '',
    });
  };
}

/** customers.erase_requested -> confirmation to the account's address. */
export function onErasureRequested(domain: NotificationsDomain): EventHandler<customers.ErasureRequested> {
  return async ({ payload }, em) => {
    if (!payload.email) return;
    await domain.emails.send(em, 'erasure_requested', payload.email, { request_id: payload.requestId });
  };
}
