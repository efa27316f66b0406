import { customers } from '@storefront/proto/customers';
import { fromProtoFields, toProtoFields } from '@storefront/grpc-client';
import { ADDRESS_FIELDS, type AddressFields, type User } from '../persistence/entities';
import { capabilitiesOf } from '@storefront/access';
import type { Principal } from '../domain/principal';
import type { OpenedSession } from '../domain/sessions';
import { avatarUrl, hasAddress } from '../domain/profile';

export function toProtoAddress(a: AddressFields): customers.Address {
  return customers.Address.fromPartial(toProtoFields(ADDRESS_FIELDS, a));
}

/** Only the fields present in the patch. */
export function fromAddressPatch(p: customers.AddressPatch | undefined): Partial<AddressFields> | undefined {
  return p ? fromProtoFields(ADDRESS_FIELDS, p) : undefined;
}

export function fromAddress(a: customers.Address | undefined): Partial<AddressFields> | undefined {
  return a ? fromAddressPatch(a) : undefined;
}

function stats(user: User): customers.CustomerStats {
  return { totalOrders: user.totalOrders, totalSpent: user.totalSpent, totalDownloads: user.totalDownloads };
}

export function toProtoCustomer(user: User): customers.Customer {
  return {
    id: user.id,
    username: user.login,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
    roles: user.roles,
    capabilities: capabilitiesOf(user.roles),
    registeredAt: user.registeredAt,
    modifiedAt: user.modifiedAt,
    billing: toProtoAddress(user.billing),
    shipping: toProtoAddress(user.shipping),
    meta: user.meta.map((m) => ({ id: m.id, key: m.key, value: m.value })),
    stats: stats(user),
    avatarUrl: avatarUrl(user.email),
    subscribeToEmail: user.subscribeToEmail,
  };
}

export function toProtoProfile(user: User): customers.Profile {
  return {
    id: user.id,
    username: user.login,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
    avatarUrl: avatarUrl(user.email),
    userRegistered: user.registeredAt,
    subscribeToEmail: user.subscribeToEmail,
    stats: stats(user),
    hasBillingAddress: hasAddress(user.billing),
    hasShippingAddress: hasAddress(user.shipping),
  };
}

export function toProtoPrincipal(p: Principal): customers.Principal {
  return { ...p };
}

export function toProtoSession(s: OpenedSession): customers.Session {
  return { id: s.token, expiresAt: s.expiresAt, remember: s.remember };
}
