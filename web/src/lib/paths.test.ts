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

  // Issue 36: "/%09/evil.example" passed, and the router then refused it after sign-in.
  it('takes a target with control characters, white space or backslashes as no target', () => {
    for (const bad of ['/\t/evil.example', '/\n/evil.example', '/\r/evil.example', '/\u0000x', '/ /evil.example', '/\u00a0/x', '/x\\..\\y', '/a\u007f']) {
      expect(safeRedirectTarget(bad)).toBe('/');
    }
  });
});
