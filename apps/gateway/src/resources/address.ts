import type { customers } from '@storefront/proto';

export interface RestAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email: string;
  phone: string;
}

export function restAddress(a: customers.Address | undefined): RestAddress {
  return {
    first_name: a?.firstName ?? '',
    last_name: a?.lastName ?? '',
    company: a?.company ?? '',
    address_1: a?.address1 ?? '',
    address_2: a?.address2 ?? '',
    city: a?.city ?? '',
    state: a?.state ?? '',
    postcode: a?.postcode ?? '',
    country: a?.country ?? '',
    email: a?.email ?? '',
    phone: a?.phone ?? '',
  };
}

/** REST address fields (all optional) -> proto patch. */
export function addressPatch(a: Partial<RestAddress> | undefined): customers.AddressPatch | undefined {
  if (!a) return undefined;
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    address1: a.address_1,
    address2: a.address_2,
    city: a.city,
    state: a.state,
    postcode: a.postcode,
    country: a.country,
    email: a.email,
    phone: a.phone,
  };
}
