import { sqlMigration } from '@storefront/persistence';

const S = '"customers"';

/** Publishable keys of the embed addon; a revoked key keeps its row (revoked_at) so it is never reissued. */
export const publishableKeys = sqlMigration('0003_publishable_keys', [
  `create table ${S}."publishable_keys" (
    "id" bigserial primary key,
    "name" varchar(255) not null,
    "key" varchar(64) not null unique,
    "allowed_origins" jsonb not null default '[]',
    "created_at" timestamptz not null,
    "revoked_at" timestamptz
  )`,
]);
