import { sqlMigration } from '@storefront/persistence';

const S = '"notifications"';

/**
 * Emails that go out once per subject whatever events ask again (an order is
 * announced once, even when its status moves back and forth): each key, and
 * the event that claimed it before sending (its redelivery may send again).
 */
export const emailOnceKeys = sqlMigration('0003_email_once_keys', [
  `create table ${S}."email_once_keys" (
    "key" varchar(200) primary key,
    "event_id" varchar(100) not null,
    "created_at" timestamptz not null default now()
  )`,
]);
