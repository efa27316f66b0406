import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { paymentsService } from '../src/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService(paymentsService);
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

describe('payments schema', () => {
  it('has no drift between entities and migrations', async () => {
    const diff = await service.db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});
