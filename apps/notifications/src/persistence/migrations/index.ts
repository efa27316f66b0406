import { initial } from './0001-initial';
import { emailPreferences } from './0002-email-preferences';
import { emailOnceKeys } from './0003-email-once-keys';

/** Every migration of the notifications schema, in order. Append; never edit a released one. */
export const migrations = [initial, emailPreferences, emailOnceKeys];
