import { describe, expect, it } from '@jest/globals';
import { customers } from '@storefront/proto/customers';
import { fromProtoFields, protoFieldName, toProtoFields } from '@storefront/grpc-client';

// libs/grpc-client's field-name mapping against a real generated message (customers' Address).
const FIELDS = ['first_name', 'address_1', 'city'] as const;

describe('proto field names', () => {
  it('spells a proto field the way ts-proto does', () => {
    expect(protoFieldName('first_name')).toBe('firstName');
    expect(protoFieldName('address_1')).toBe('address1');
    expect(protoFieldName('city')).toBe('city');
    // Every field of the generated Address is reachable from its proto name.
    expect(Object.keys(customers.Address.fromPartial({}))).toEqual(
      expect.arrayContaining(['firstName', 'address1', 'address2', 'postcode', 'phone']),
    );
  });

  it('maps both ways and leaves absent fields absent (patch semantics)', () => {
    expect(toProtoFields(FIELDS, { first_name: 'Ada', address_1: '1 Main St' })).toEqual({ firstName: 'Ada', address1: '1 Main St' });
    expect(fromProtoFields(FIELDS, { address1: '2 High St', city: '' })).toEqual({ address_1: '2 High St', city: '' });
  });
});
