import { invalidParams, isEmailAddress } from '@storefront/errors';

/** An account's email: the shared check, within the 100 characters an account keeps. */
export function isEmail(value: string): boolean {
  return value.length <= 100 && isEmailAddress(value);
}

export function requireEmail(value: string, field = 'email'): string {
  const email = value.trim();
  if (!isEmail(email)) throw invalidParams({ [field]: `${field} is not a valid email address.` });
  return email;
}

export function requirePasswordLength(password: string, minLength: number, field = 'password'): void {
  if (password.length < minLength) {
    throw invalidParams({ [field]: `${field} must be at least ${minLength} characters long.` });
  }
}
