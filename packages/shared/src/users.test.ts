import { describe, expect, it } from 'vitest';
import {
  LoginInputSchema,
  ProfileUrlSchema,
  RegisterInputSchema,
  UpdateProfileInputSchema,
} from './users.js';
import { SubscribeInputSchema } from './newsletter.js';

describe('account input schemas (shared by the forms and the API)', () => {
  const url = ProfileUrlSchema('Website URL');

  it('profile links: adds https:// to bare addresses, refuses other schemes', () => {
    expect(url.parse('example.org')).toBe('https://example.org');
    expect(url.parse('  http://example.org/me?x=1 ')).toBe('http://example.org/me?x=1');
    expect(url.parse('')).toBe('');
    for (const bad of [
      'javascript:alert(1)',
      'ftp://x.org',
      'https://',
      'not a url',
      'localhost',
    ]) {
      expect(url.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('registration: username rule, password length, trimmed email', () => {
    const base = {
      username: 'ada-l_1',
      firstName: 'Ada',
      lastName: 'L',
      email: ' Ada@Example.org ',
      password: '12345678',
    };
    expect(RegisterInputSchema.parse(base).email).toBe('Ada@Example.org');
    expect(RegisterInputSchema.safeParse({ ...base, username: 'ad' }).success).toBe(false);
    expect(RegisterInputSchema.safeParse({ ...base, username: 'a.b' }).success).toBe(false);
    expect(RegisterInputSchema.safeParse({ ...base, password: '1234567' }).success).toBe(false);
    expect(RegisterInputSchema.safeParse({ ...base, password: 'x'.repeat(257) }).success).toBe(
      false,
    );
  });

  it('profile edits drop read-only fields', () => {
    const parsed = UpdateProfileInputSchema.parse({
      bio: 'hi',
      email: 'x@y.org',
      username: 'new',
      generationCredits: 99,
    });
    expect(parsed).toEqual({ bio: 'hi' });
  });

  it('login and newsletter bodies', () => {
    expect(LoginInputSchema.safeParse({ email: 'a@b.org', password: '' }).success).toBe(false);
    expect(SubscribeInputSchema.safeParse([{ email: 'a@b.org' }]).success).toBe(true);
    expect(SubscribeInputSchema.safeParse([]).success).toBe(false);
  });
});
