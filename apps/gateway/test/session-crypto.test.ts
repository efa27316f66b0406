import { describe, expect, it } from '@jest/globals';
import { Nonces } from '../src/auth/nonce';
import { PrincipalCache } from '../src/auth/principal-cache';
import { SessionCookies, sessionIdOf } from '../src/auth/session-cookie';
import { VerifiedSessions } from '../src/auth/verified-sessions';

const HOUR = 3600 * 1000;

describe('session cookies', () => {
  const cookies = new SessionCookies('k'.repeat(32));
  it('round-trip a token until it expires', () => {
    const value = cookies.encode('tok123', new Date(Date.now() + HOUR));
    expect(cookies.decode(value)).toBe('tok123');
    expect(cookies.decode(value, Date.now() + 2 * HOUR)).toBeUndefined();
  });
  it('reject tampering and other keys', () => {
    const value = cookies.encode('tok123', new Date(Date.now() + HOUR));
    expect(cookies.decode(value.replace('tok123', 'tok124'))).toBeUndefined();
    expect(new SessionCookies('x'.repeat(32)).decode(value)).toBeUndefined();
    expect(cookies.decode('garbage')).toBeUndefined();
  });
});

describe('nonces', () => {
  const nonces = new Nonces('n'.repeat(32));
  it('are bound to the session and live 12 to 24 hours', () => {
    const t0 = 1_800_000_000_000;
    const nonce = nonces.issue('session-a', t0);
    expect(nonces.verify('session-a', nonce, t0)).toBe(true);
    expect(nonces.verify('session-b', nonce, t0)).toBe(false);
    expect(nonces.verify('session-a', nonce, t0 + 12 * HOUR)).toBe(true);
    expect(nonces.verify('session-a', nonce, t0 + 25 * HOUR)).toBe(false);
    expect(nonces.verify('session-a', undefined, t0)).toBe(false);
  });
});

describe('verified sessions', () => {
  const secret = 'v'.repeat(32);
  const cookies = new SessionCookies(secret);
  const nonces = new Nonces(secret);
  const t0 = 1_800_000_000_000;
  const cookie = cookies.encode('tok-a', new Date(t0 + 48 * HOUR));
  const nonce = nonces.issue('tok-a', t0);

  it('give what the cookie and nonce checks give, remembered until the nonce tick ends', () => {
    const sessions = new VerifiedSessions(cookies, nonces);
    const expected = { token: 'tok-a', sessionId: sessionIdOf('tok-a'), nonceValid: true };
    expect(sessions.verify(cookie, nonce, t0)).toEqual(expected);
    expect(sessions.verify(cookie, nonce, t0 + 1000)).toEqual(expected);
    expect(sessions.verify(cookie, nonce, t0 + 12 * HOUR)).toEqual(expected); // the previous tick's nonce
    expect(sessions.verify(cookie, nonce, t0 + 25 * HOUR)?.nonceValid).toBe(false);
    expect(sessions.verify(cookie, 'wrong-nonce', t0)).toEqual({ ...expected, nonceValid: false });
    expect(sessions.verify(cookie, undefined, t0)).toEqual({ ...expected, nonceValid: false });
  });

  it('never outlive the cookie, and refuse forged cookies', () => {
    const sessions = new VerifiedSessions(cookies, nonces);
    const short = cookies.encode('tok-a', new Date(t0 + 60_000));
    expect(sessions.verify(short, nonce, t0)?.token).toBe('tok-a');
    expect(sessions.verify(short, nonce, t0 + 61_000)).toBeUndefined();
    expect(sessions.verify(cookie.replace('tok-a', 'tok-b'), nonce, t0)).toBeUndefined();
    expect(sessions.verify(new SessionCookies('x'.repeat(32)).encode('tok-a', new Date(t0 + HOUR)), nonce, t0)).toBeUndefined();
    expect(sessions.verify(undefined, nonce, t0)).toBeUndefined();
  });

  it('keep at most maxEntries', () => {
    const sessions = new VerifiedSessions(cookies, nonces, 2);
    for (const token of ['t1', 't2', 't3']) {
      const c = cookies.encode(token, new Date(t0 + HOUR));
      expect(sessions.verify(c, nonces.issue(token, t0), t0)?.nonceValid).toBe(true);
    }
    expect((sessions as unknown as { entries: Map<string, unknown> }).entries.size).toBe(2);
  });
});

describe('principal cache', () => {
  const principal = (userId: number) => ({ userId, login: 'u', email: '', displayName: '', roles: [], capabilities: [] });
  it('expires entries and evicts by user', () => {
    const cache = new PrincipalCache(1000);
    cache.set('s:1', principal(1), 0);
    cache.set('b:1', principal(1), 0);
    cache.set('s:2', principal(2), 0);
    expect(cache.get('s:1', 500)?.userId).toBe(1);
    expect(cache.get('s:1', 1500)).toBeUndefined();
    cache.set('s:1', principal(1), 2000);
    cache.evictUser(1);
    expect(cache.get('s:1', 2100)).toBeUndefined();
    expect(cache.get('b:1', 2100)).toBeUndefined();
    expect(cache.get('s:2', 900)?.userId).toBe(2);
  });
  it('caches nothing with a zero TTL', () => {
    const cache = new PrincipalCache(0);
    cache.set('s:1', principal(1));
    expect(cache.get('s:1')).toBeUndefined();
  });
});
