import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Platform } from '../src';
import { firstCall } from '../../../docs/examples/first-call';
import { ADMIN, startStack } from './support/stack';

// The typed-client example of docs/ (the README's first authenticated call)
// runs against the started platform: it must keep working as the API changes.
let stack: Platform;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('docs/examples/first-call.ts', () => {
  it('logs in, gets a nonce, creates an application password, browses products and updates the profile', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const profile = await firstCall(stack.url, ADMIN.login, ADMIN.password);
      expect(profile.username).toBe(ADMIN.login);
      expect(profile.first_name).toBe('Ada');
      expect(profile.display_name).toBe('Ada L.');
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/logged in; nonce \S+/);
    } finally {
      log.mockRestore();
    }
  });
});
