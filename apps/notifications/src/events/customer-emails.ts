import { sitePageUrl } from '@storefront/grpc-client';
import type { customers } from '@storefront/proto/customers';
import type { NotificationsDomain } from '../domain';
import { emailConsumer } from './email-consumer';

/** customers.customer_created -> welcome email. */
export function onCustomerCreated(domain: NotificationsDomain) {
  return emailConsumer<customers.CustomerCreated>(domain, (payload, site) =>
    payload.email
      ? [
          {
            type: 'welcome',
            to: payload.email,
            vars: {
              first_name: payload.firstName || payload.login,
              login: payload.login,
              account_url: sitePageUrl(site.siteUrl, '/my-account/'),
              password_note: payload.passwordGenerated ? 'We have sent you a separate email with a link to set your password.' : '',
            },
          },
        ]
      : [],
  );
}

/** customers.password_reset_requested -> the reset link (store reset page, `key` and `login`). */
export function onPasswordResetRequested(domain: NotificationsDomain) {
  return emailConsumer<customers.PasswordResetRequested>(domain, (payload, site) => {
    if (!payload.email) return [];
    let link = payload.resetUrl;
    if (!link) {
      const url = new URL(sitePageUrl(site.siteUrl, '/my-account/lost-password/'));
      url.searchParams.set('key', payload.key);
      url.searchParams.set('login', payload.login);
      link = url.toString();
    }
    return [
      {
        type: 'password_reset',
        to: payload.email,
        vars: { login: payload.login, reset_url: link, expires_at: payload.expiresAt ? payload.expiresAt.toISOString() : '' },
      },
    ];
  });
}

/** customers.erase_requested -> confirmation to the account's address. */
export function onErasureRequested(domain: NotificationsDomain) {
  return emailConsumer<customers.ErasureRequested>(domain, (payload) =>
    payload.email ? [{ type: 'erasure_requested', to: payload.email, vars: { request_id: payload.requestId } }] : [],
  );
}
