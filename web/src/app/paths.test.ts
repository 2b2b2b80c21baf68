import { describe, expect, it } from 'vitest';
import { loginPath, safeRedirectTarget } from './paths';

describe('loginPath', () => {
  it('carries the target in the redirect parameter', () => {
    expect(loginPath('/')).toBe('/login?redirect=%2F');
    expect(loginPath('/a?b=c')).toBe('/login?redirect=%2Fa%3Fb%3Dc');
    expect(loginPath()).toBe('/login');
  });
});

describe('safeRedirectTarget', () => {
  it('accepts in-app paths', () => {
    expect(safeRedirectTarget('/project/view?id=1')).toBe('/project/view?id=1');
  });

  it('refuses anything that could leave the site, or loop to login', () => {
    for (const bad of [null, '', 'https://evil.test/', '//evil.test', '/\\evil.test', 'javascript:alert(1)', '/login', '/login?redirect=%2F']) {
      expect(safeRedirectTarget(bad)).toBe('/');
    }
  });
});
