/** The address check of checkout fields and admin orders: something@host.tld, no spaces (a lenient is_email). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(value: string): boolean {
  return EMAIL.test(value);
}
