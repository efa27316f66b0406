import { sqlMigration } from '@storefront/persistence';

const S = '"customers"';

/** Forgot-password requests wait here: the request answers in constant time, the work happens after. */
export const hardening = sqlMigration('0002_hardening', [
  `create table ${S}."password_reset_requests" (
    "id" bigserial primary key,
    "email" varchar(255) not null,
    "requested_at" timestamptz not null
  )`,
]);
