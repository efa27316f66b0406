import { invalidParams } from '@storefront/errors';

// Same shape as the HTML living standard's email check: what browsers accept.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 100 && EMAIL.test(value);
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
