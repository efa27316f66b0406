import type { FastifyRequest } from 'fastify';
import type { customers } from '@storefront/proto/customers';
import { formatDateTime } from '../http/dates';
import { Type } from 'typebox';
import { baseUrl } from '../http/links';
import { DateTime } from '../http/schemas';
import { LinksSchema } from '../http/responses';
import { CustomerStats } from './customer';

/** JSON Schema of `GET /me`. */
export const ProfileSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    display_name: Type.String(),
    avatar_url: Type.String(),
    user_registered: DateTime(),
    subscribe_to_email: Type.Boolean(),
    stats: CustomerStats,
    has_billing_address: Type.Boolean(),
    has_shipping_address: Type.Boolean(),
    _links: LinksSchema,
  },
  { title: 'Profile' },
);

export const NotificationPreferencesSchema = Type.Object(
  { subscribe_to_email: Type.Boolean(), order_email: Type.Boolean(), marketing_email: Type.Boolean() },
  { title: 'NotificationPreferences' },
);

export const PrivacyPreferencesSchema = Type.Object(
  { data_sharing_consent: Type.Boolean(), profiling_consent: Type.Boolean() },
  { title: 'PrivacyPreferences' },
);

/** `GET /me`: the dashboard profile with stats (spec 2.5). */
export function profileResource(p: customers.Profile, request: FastifyRequest) {
  return {
    id: p.id,
    username: p.username,
    email: p.email,
    first_name: p.firstName,
    last_name: p.lastName,
    display_name: p.displayName,
    avatar_url: p.avatarUrl,
    user_registered: formatDateTime(p.userRegistered),
    subscribe_to_email: p.subscribeToEmail,
    stats: {
      total_orders: p.stats?.totalOrders ?? 0,
      total_spent: Number(p.stats?.totalSpent ?? 0),
      total_downloads: p.stats?.totalDownloads ?? 0,
    },
    has_billing_address: p.hasBillingAddress,
    has_shipping_address: p.hasShippingAddress,
    _links: { self: [{ href: `${baseUrl(request)}/shop/v1/me` }] },
  };
}

export function notificationsResource(p: customers.NotificationPreferences | undefined) {
  return {
    subscribe_to_email: p?.subscribeToEmail ?? false,
    order_email: p?.orderEmail ?? true,
    marketing_email: p?.marketingEmail ?? false,
  };
}

export function privacyResource(p: customers.PrivacyPreferences | undefined) {
  return { data_sharing_consent: p?.dataSharingConsent ?? false, profiling_consent: p?.profilingConsent ?? false };
}
