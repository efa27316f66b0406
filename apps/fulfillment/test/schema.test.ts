import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { fulfillmentService } from '../src/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService(fulfillmentService);
});
afterAll(async () => {
  await service.stop();
});

describe('fulfillment schema', () => {
  it('has no drift between entities and migrations', async () => {
    const diff = await service.db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});
