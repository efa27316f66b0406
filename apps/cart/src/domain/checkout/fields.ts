import { isEmailAddress, unprocessable } from '@storefront/errors';
import type { Address, RegionsPort } from '../ports';

export interface FieldDefinition {
  key: string;
  label: string;
  type: 'text' | 'email' | 'tel' | 'country' | 'state' | 'textarea' | 'checkbox';
  required: boolean;
  group: 'billing' | 'shipping' | 'order' | 'consent';
  priority: number;
  autocomplete: string;
}

const ADDRESS: Array<[string, string, FieldDefinition['type'], boolean, string]> = [
  ['first_name', 'First name', 'text', true, 'given-name'],
  ['last_name', 'Last name', 'text', true, 'family-name'],
  ['company', 'Company name', 'text', false, 'organization'],
  ['country', 'Country / Region', 'country', true, 'country'],
  ['address_1', 'Street address', 'text', true, 'address-line1'],
  ['address_2', 'Apartment, suite, unit, etc.', 'text', false, 'address-line2'],
  ['city', 'Town / City', 'text', true, 'address-level2'],
  ['state', 'State / County', 'state', false, 'address-level1'],
  ['postcode', 'Postcode / ZIP', 'text', true, 'postal-code'],
];

const TERMS_LABEL = 'I have read and agree to the website terms and conditions';

/**
 * The checkout form: billing, shipping (when the cart ships), notes and
 * consent. Shipping fields stay optional (a partial shipping address falls
 * back field by field to what the quote and the order need; clients that send
 * only a shipping country to see rates must not be refused); the terms
 * consent is required when the store says so (CHECKOUT_TERMS_REQUIRED).
 */
export function checkoutFields(needsShipping: boolean, termsRequired: boolean): FieldDefinition[] {
  const address = (group: 'billing' | 'shipping', required: boolean) =>
    ADDRESS.map(([name, label, type, req, autocomplete], i) => ({
      key: `${group}_${name}`,
      label,
      type,
      required: required && req,
      group,
      priority: (i + 1) * 10,
      autocomplete: `${group} ${autocomplete}`,
    }));
  return [
    ...address('billing', true),
    { key: 'billing_phone', label: 'Phone', type: 'tel', required: false, group: 'billing', priority: 100, autocomplete: 'billing tel' },
    { key: 'billing_email', label: 'Email address', type: 'email', required: true, group: 'billing', priority: 110, autocomplete: 'billing email' },
    ...(needsShipping ? address('shipping', false) : []),
    { key: 'order_comments', label: 'Order notes', type: 'textarea', required: false, group: 'order', priority: 10, autocomplete: 'off' },
    { key: 'terms', label: TERMS_LABEL, type: 'checkbox', required: termsRequired, group: 'consent', priority: 10, autocomplete: 'off' },
  ];
}

export interface ConsentCheckbox {
  id: string;
  label: string;
  required: boolean;
}

export function consentCheckboxes(termsRequired: boolean): ConsentCheckbox[] {
  return [
    { id: 'terms', label: TERMS_LABEL, required: termsRequired },
    { id: 'marketing_opt_in', label: 'Send me news and offers by email', required: false },
  ];
}

const KEY = /^[a-z0-9_]{1,64}$/;
const MAX_FIELDS = 100;
const MAX_VALUE = 1000;

export const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

/** Shape problems of pushed values (400): key names, sizes, NUL. */
export function fieldShapeProblems(fields: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  const keys = Object.keys(fields);
  if (keys.length > MAX_FIELDS) problems.fields = `At most ${MAX_FIELDS} fields.`;
  for (const key of keys) {
    if (!KEY.test(key)) problems[`fields.${key.slice(0, 64)}`] = 'Field names are lower-case letters, digits and underscores.';
    else if (fields[key].length > MAX_VALUE || fields[key].includes('\u0000')) problems[`fields.${key}`] = 'Value too long or not text.';
  }
  return problems;
}

/** A cart keeps at most MAX_FIELDS fields in all (pushes add up): 400 beyond. */
export function storedFieldProblems(fields: Record<string, string>): Record<string, string> {
  return Object.keys(fields).length > MAX_FIELDS ? { fields: `A checkout keeps at most ${MAX_FIELDS} fields; clear some (send them empty) first.` } : {};
}

/** Value problems of pushed fields (checked on update for the fields given). */
export function fieldValueProblems(fields: Record<string, string>, only?: string[]): Record<string, string> {
  const problems: Record<string, string> = {};
  const check = (key: string) => only === undefined || only.includes(key);
  for (const key of ['billing_email', 'shipping_email']) {
    if (check(key) && fields[key] && !isEmailAddress(fields[key])) problems[key] = 'Please enter a valid email address.';
  }
  for (const key of ['billing_country', 'shipping_country']) {
    if (check(key) && fields[key] && !/^[A-Za-z]{2}$/.test(fields[key])) problems[key] = 'Please choose a valid country.';
  }
  return problems;
}

/** The order ships to its own shipping address (not the billing one): its fields are checked too. */
export function shipsElsewhere(fields: Record<string, string>, needsShipping: boolean): boolean {
  return needsShipping && Boolean(fields.shipping_address_1 || fields.shipping_country);
}

/** Everything placing an order needs (422 naming each missing or bad field). */
export function requiredProblems(fields: Record<string, string>, needsShipping: boolean, termsRequired: boolean): Record<string, string> {
  const problems: Record<string, string> = fieldValueProblems(fields);
  for (const def of checkoutFields(shipsElsewhere(fields, needsShipping), termsRequired)) {
    if (!def.required || problems[def.key]) continue;
    const v = fields[def.key];
    if (def.type === 'checkbox' ? !truthy(v) : !v || !v.trim()) problems[def.key] = `${def.label} is a required field.`;
  }
  return problems;
}

/**
 * The state fields of `groups` against their country's list (GET
 * /checkout/states): a value that is neither a code nor a name of it is
 * refused; with `requireState`, an empty one where the country requires a
 * state too. Countries without a list take any text.
 */
export async function stateProblems(
  fields: Record<string, string>,
  regions: RegionsPort,
  groups: ReadonlyArray<'billing' | 'shipping'>,
  requireState: boolean,
): Promise<Record<string, string>> {
  const problems: Record<string, string> = {};
  for (const group of groups) {
    const country = fields[`${group}_country`]?.trim();
    if (!country) continue;
    const field = await regions.stateField(country);
    if (!field?.states.length) continue;
    const key = `${group}_state`;
    const value = (fields[key] ?? '').trim().toUpperCase();
    if (!value) {
      if (requireState && field.required) problems[key] = `${field.label} is a required field.`;
    } else if (!field.states.some((s) => s.code.toUpperCase() === value || s.name.toUpperCase() === value)) {
      problems[key] = `"${fields[key].trim()}" is not a valid ${field.label.toLowerCase()} of ${country.toUpperCase()}.`;
    }
  }
  return problems;
}

export function fieldErrors(problems: Record<string, string>) {
  const first = Object.values(problems)[0];
  return unprocessable('shop_checkout_invalid_fields', first ?? 'Some checkout fields are invalid.', { fields: problems });
}

export function addressOf(fields: Record<string, string>, group: 'billing' | 'shipping'): Address {
  const g = (name: string) => fields[`${group}_${name}`] ?? '';
  return {
    first_name: g('first_name'),
    last_name: g('last_name'),
    company: g('company'),
    address_1: g('address_1'),
    address_2: g('address_2'),
    city: g('city'),
    state: g('state'),
    postcode: g('postcode'),
    country: g('country').toUpperCase(),
    email: g('email'),
    phone: g('phone'),
  };
}

/** The shipping address: its own fields when given, else the billing address (without email/phone). */
export function shippingAddressOf(fields: Record<string, string>): Address {
  if (fields.shipping_address_1 || fields.shipping_country) return { ...addressOf(fields, 'shipping'), email: '', phone: '' };
  return { ...addressOf(fields, 'billing'), email: '', phone: '' };
}
