import type { Static } from 'typebox';
import { fromProtoFields, toProtoFields } from '@storefront/grpc-client';
import type { customers } from '@storefront/proto';
import { Address, AddressFields } from '../http/schemas';

/** The REST address: its one definition is the `Address` schema (http/schemas.ts), named like the proto fields. */
export type RestAddress = Static<typeof Address>;

const FIELDS = Object.keys(AddressFields) as Array<keyof RestAddress>;
const EMPTY = Object.fromEntries(FIELDS.map((name) => [name, ''])) as RestAddress;

export function restAddress(a: customers.Address | undefined): RestAddress {
  return { ...EMPTY, ...(a ? fromProtoFields(FIELDS, a) : {}) };
}

/** REST address fields (all optional) -> proto patch. */
export function addressPatch(a: Partial<RestAddress> | undefined): customers.AddressPatch | undefined {
  return a ? toProtoFields(FIELDS, a) : undefined;
}

/** REST address fields (all optional) -> a full proto address, absent fields empty (orders store whole addresses). */
export function protoAddress(a: Partial<RestAddress>) {
  return toProtoFields(FIELDS, { ...EMPTY, ...a });
}
