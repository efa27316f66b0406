import { sqlMigration } from '@storefront/persistence';

const S = '"payments"';

// A confirmed setup intent becomes one saved token: the token it made is kept on it, so sending the
// same payment_method_id again answers that token instead of saving the card twice.
export const setupIntentToken = sqlMigration('0003_setup_intent_token', [`alter table ${S}."intents" add column "token_id" bigint null`]);
