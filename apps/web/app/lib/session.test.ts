import { afterEach, describe, expect, it } from 'vitest';
import { hasValidStoredToken, readTokenExpiry, storeToken } from './session';

function fakeJwt(payload: object): string {
  const b64 = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${b64({ alg: 'HS256' })}.${b64(payload)}.signature`;
}

describe('session token rule (spec §4)', () => {
  afterEach(() => localStorage.clear());

  it('reads the expiry claim', () => {
    expect(readTokenExpiry(fakeJwt({ exp: 123 }))).toBe(123);
    expect(readTokenExpiry('not-a-token')).toBeNull();
    expect(readTokenExpiry(fakeJwt({ sub: 'x' }))).toBeNull();
  });

  it('a stored token with a future exp is a session; a past one is not', () => {
    expect(hasValidStoredToken()).toBe(false);
    storeToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) + 60 }));
    expect(hasValidStoredToken()).toBe(true);
    storeToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) - 60 }));
    expect(hasValidStoredToken()).toBe(false);
    storeToken(null);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
