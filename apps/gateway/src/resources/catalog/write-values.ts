import { Type } from 'typebox';
import { Id, MAX_ID } from '../../http/schemas';

// Request-body value types shared by the content-type writes. No `default`
// anywhere: validation inserts defaults, and an inserted value would turn
// "absent, keep it" into "replace it" on PATCH.

/**
 * Title, content or excerpt: a plain string, or `{raw}` as a context=edit
 * read shows it (an object without raw, e.g. `{rendered}` from a view read,
 * leaves the field unchanged). One schema with two types so a wrong type is
 * reported once by name; maxLength applies to the string form only.
 */
export const RawText = (maxLength: number, description: string) =>
  Type.Unsafe<string | { raw?: string }>({
    type: ['string', 'object'],
    maxLength,
    properties: { raw: { type: 'string', maxLength } },
    additionalProperties: false,
    description: `${description} A string or {raw}.`,
  });

export function rawText(value: string | { raw?: string } | undefined): string | undefined {
  return typeof value === 'object' ? value.raw : value;
}

/** Money in: a non-negative JSON number or decimal string ("19.99"); the service checks scale and range. */
export const Money = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['number', 'string'],
    minimum: 0,
    pattern: '^\\s*[0-9]+(\\.[0-9]+)?\\s*$',
    maxLength: 40,
    description: `${description} Non-negative, at most 2 decimals (number or decimal string).`,
  });

/** As Money, where null (or "") means none. */
export const OptionalMoney = (description: string) =>
  Type.Unsafe<number | string | null>({
    type: ['number', 'string', 'null'],
    minimum: 0,
    pattern: '^\\s*([0-9]+(\\.[0-9]+)?)?\\s*$',
    maxLength: 40,
    description: `${description} null or "" for none.`,
  });

/**
 * A JSON number as the decimal text the service parses: every digit of its
 * shortest round-trip form, never an exponent (1e-7 -> "0.0000001").
 */
export function decimalText(value: number | string): string {
  return typeof value === 'string' ? value.trim() : value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 100 });
}

/** Ids in a body: existing int4 ids, at most 100 (the catalog's list limit). */
export const IdArray = (description: string) => Type.Array(Id(), { maxItems: 100, description });

/** A signed int4 (menu_order and other plain integers that must fit the column). */
export const Int4 = (description: string, minimum = -MAX_ID) => Type.Integer({ minimum, maximum: MAX_ID, description });

/** A custom-fields object: any JSON values; null removes a key. */
export const MetaObject = (description: string) =>
  Type.Record(Type.String({ minLength: 1, maxLength: 255 }), Type.Unknown(), { description });
