import { sqlMigration } from '@storefront/persistence';

// A failed order paid again renews its reservation; an order event from before the renewal
// (delivered late) must not give back what the renewal took.
export const reservationRenewals = sqlMigration('0008_reservation_renewals', [
  `alter table "catalog"."reservations" add column if not exists "renewed_at" timestamptz null`,
]);
