import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from '../src';

describe('isEmailAddress', () => {
  it.each(['a@b.co', "o'brien+shop@mail.example.com", 'x_y-z@sub-domain.example.org'])('accepts %s', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each(['', 'plain', 'a@b', 'a b@c.com', 'a@b..com', 'a@-b.com', '@b.com', 'a@b.com ', `${'a'.repeat(250)}@b.com`])('refuses %j', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });
});
