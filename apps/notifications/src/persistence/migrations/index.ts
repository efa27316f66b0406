import { initial } from './0001-initial';
import { emailPreferences } from './0002-email-preferences';

/** Every migration of the notifications schema, in order. Append; never edit a released one. */
export const migrations = [initial, emailPreferences];
