import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps paths on this site', () => {
    expect(safeRedirect('/account')).toBe('/account');
    expect(safeRedirect('/set/12?tab=a')).toBe('/set/12?tab=a');
  });
  it('falls back to the dashboard for anything else', () => {
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login',
      '/x\n',
    ]) {
      expect(safeRedirect(bad), String(bad)).toBe('/dashboard');
    }
  });
});
