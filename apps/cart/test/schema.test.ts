import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { cartService } from '../src/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService(cartService);
}, 60_000);
afterAll(async () => {
  await service?.stop();
}, 60_000);

describe('cart schema', () => {
  it('has no drift between entities and migrations', async () => {
    const diff = await service.db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});
