import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A stored address: named like the proto `shop.customers.v1.Address` fields (and the REST address). */
export const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
  'email',
  'phone',
] as const;
export type AddressFields = Record<(typeof ADDRESS_FIELDS)[number], string>;

export interface MetaFieldRow {
  id: number;
  key: string;
  value: unknown;
}

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    login: p.string().length(60).unique('users_login_unique'),
    email: p.string().length(100),
    passwordHash: p.string().length(255),
    firstName: p.string().length(100).default(''),
    lastName: p.string().length(100).default(''),
    displayName: p.string().length(250).default(''),
    roles: p.json<string[]>(),
    registeredAt: p.datetime(),
    modifiedAt: p.datetime(),
    billing: p.json<AddressFields>(),
    shipping: p.json<AddressFields>(),
    meta: p.json<MetaFieldRow[]>(),
    subscribeToEmail: p.boolean().default(false),
    orderEmail: p.boolean().default(true),
    marketingEmail: p.boolean().default(false),
    dataSharingConsent: p.boolean().default(false),
    profilingConsent: p.boolean().default(false),
    totalOrders: p.integer().default(0),
    totalSpent: p.decimal('string').precision(14).scale(2).default('0.00'),
    totalDownloads: p.integer().default(0),
  },
});
export type User = InferEntity<typeof User>;

/** A cookie session; `id` is the SHA-256 of the secret token the cookie carries. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  indexes: [{ name: 'sessions_user_idx', properties: ['userId'] }],
  properties: {
    id: p.string().length(64).primary(),
    userId: p.integer(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    remember: p.boolean().default(false),
    endedAt: p.datetime().nullable(),
  },
});
export type Session = InferEntity<typeof Session>;

/** An application password; only a keyed hash of the secret is stored. */
export const ApplicationPassword = defineEntity({
  name: 'ApplicationPassword',
  tableName: 'application_passwords',
  indexes: [{ name: 'application_passwords_user_idx', properties: ['userId'] }],
  properties: {
    uuid: p.uuid().primary(),
    userId: p.integer(),
    name: p.string().length(255),
    secretHash: p.string().length(64),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type ApplicationPassword = InferEntity<typeof ApplicationPassword>;

/** The one outstanding password-reset key of a user (a new request replaces it). */
export const PasswordResetKey = defineEntity({
  name: 'PasswordResetKey',
  tableName: 'password_reset_keys',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    keyHash: p.string().length(64),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type PasswordResetKey = InferEntity<typeof PasswordResetKey>;

/** One failed login, counted per account and per client IP inside a sliding window. */
export const LoginFailure = defineEntity({
  name: 'LoginFailure',
  tableName: 'login_failures',
  indexes: [{ name: 'login_failures_scope_idx', properties: ['scope', 'failedAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    scope: p.string().length(255),
    failedAt: p.datetime(),
  },
});
export type LoginFailure = InferEntity<typeof LoginFailure>;

export const ErasureRequest = defineEntity({
  name: 'ErasureRequest',
  tableName: 'erasure_requests',
  properties: {
    id: p.uuid().primary(),
    userId: p.integer(),
    status: p.string().length(20),
    createdAt: p.datetime(),
  },
});
export type ErasureRequest = InferEntity<typeof ErasureRequest>;

/** Site options as key -> JSON value. */
export const SiteOption = defineEntity({
  name: 'SiteOption',
  tableName: 'site_options',
  properties: {
    name: p.string().length(100).primary(),
    value: p.json<unknown>(),
  },
});
export type SiteOption = InferEntity<typeof SiteOption>;

export const entities = [User, Session, ApplicationPassword, PasswordResetKey, LoginFailure, ErasureRequest, SiteOption];
