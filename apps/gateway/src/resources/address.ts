import type { Static } from 'typebox';
import { protoFieldName, toProtoFields } from '@storefront/grpc-client';
import type { customers } from '@storefront/proto/customers';
import { Address, AddressFields } from '../http/schemas';

/** The REST address: its one definition is the `Address` schema (http/schemas.ts), named like the proto fields. */
export type RestAddress = Static<typeof Address>;

const FIELDS = Object.keys(AddressFields) as Array<keyof RestAddress>;
const EMPTY = Object.fromEntries(FIELDS.map((name) => [name, ''])) as RestAddress;

// REST name -> proto name, once (order lists show two addresses per order).
const PAIRS = FIELDS.map((name) => [name, protoFieldName(name)] as const);

export function restAddress(a: customers.Address | undefined): RestAddress {
  if (!a) return { ...EMPTY };
  const source = a as unknown as Record<string, string | undefined>;
  const out = { ...EMPTY };
  for (const [name, proto] of PAIRS) {
    const value = source[proto];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** REST address fields (all optional) -> proto patch. */
export function addressPatch(a: Partial<RestAddress> | undefined): customers.AddressPatch | undefined {
  return a ? toProtoFields(FIELDS, a) : undefined;
}

/** The address fields a request names (REST names are the proto field names): a partial update changes only those. */
export function addressFieldsOf(a: Partial<RestAddress> | undefined): string[] {
  return a ? FIELDS.filter((name) => a[name] !== undefined) : [];
}

/** REST address fields (all optional) -> a full proto address, absent fields empty (orders store whole addresses). */
export function protoAddress(a: Partial<RestAddress>) {
  return toProtoFields(FIELDS, { ...EMPTY, ...a });
}
