import { Type, type TSchema } from 'typebox';

/** `context`: which fields a response shows (`edit` adds fields only editors may see). */
export const Context = Type.Union([Type.Literal('view'), Type.Literal('edit'), Type.Literal('embed')], {
  default: 'view',
  description: 'Scope under which the request is made; determines fields present in response.',
});

/** Record ids are Postgres `int` (ids beyond it cannot exist: 400, not an overflow). */
export const MAX_ID = 2_147_483_647;

export const Page = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Current page of the collection.' });

/** `per_page` of a collection: 1 to 100, rejecting values outside (contract "Limits"). */
export const PerPage = (defaultValue = 10) =>
  Type.Integer({ minimum: 1, maximum: 100, default: defaultValue, description: 'Maximum number of items per page.' });

/** `per_page` that clamps to 100 instead of rejecting ("capped at 100"). */
export const CappedPerPage = (defaultValue = 10) =>
  Type.Integer({ minimum: 1, default: defaultValue, description: 'Items per page (values over 100 are capped).' });

export const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Sort direction.' });

export const IdList = (description: string) =>
  Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 100, description, default: [] });

export const Id = (description = 'Unique identifier.') => Type.Integer({ minimum: 1, maximum: MAX_ID, description });
export const IdParams = Type.Object({ id: Id() });

export const Force = (description = 'Required to be true, as the resource does not support trashing.') =>
  Type.Boolean({ default: false, description });

/** Meta trimming parameters accepted by every custom-controller read. */
export const MetaTrimming = {
  include_meta: Type.Optional(Type.Array(Type.String(), { description: 'Only these meta_data keys.' })),
  exclude_meta: Type.Optional(Type.Array(Type.String(), { description: 'Drop these meta_data keys.' })),
};

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `YYYY-MM-DD HH:MM:SS` (UTC) of custom controllers; null when unset. */
export const DateTime = (description = 'YYYY-MM-DD HH:MM:SS (UTC); null when unset.') =>
  Type.Union([Type.String(), Type.Null()], { description });

export const AddressFields = {
  first_name: Type.String({ maxLength: 100 }),
  last_name: Type.String({ maxLength: 100 }),
  company: Type.String({ maxLength: 200 }),
  address_1: Type.String({ maxLength: 200 }),
  address_2: Type.String({ maxLength: 200 }),
  city: Type.String({ maxLength: 100 }),
  state: Type.String({ maxLength: 100 }),
  postcode: Type.String({ maxLength: 20 }),
  country: Type.String({ maxLength: 2 }),
  email: Type.String({ maxLength: 100 }),
  phone: Type.String({ maxLength: 40 }),
};
export const Address = Type.Object(AddressFields, { additionalProperties: false, title: 'Address' });
export const AddressPatch = Type.Partial(Address);
