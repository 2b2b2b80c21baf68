import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setSessionHooks } from '../lib/api/client';
import { setIdentityForTests } from '../lib/session/identity';
import { fakeIdentity } from './fakeIdentity';

// Unit tests never load the firebase SDK: a fake identity client stands in (tests that
// care install their own).
beforeEach(() => {
  setIdentityForTests(fakeIdentity());
});

// Test files share their modules within a worker (vitest.config.ts: isolate off), so
// what one test leaves in a module's state goes back to how the module starts.
afterEach(() => {
  cleanup();
  setIdentityForTests(null);
  setSessionHooks(null);
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  localStorage.clear();
});

// jsdom lacks these browser APIs that Mantine uses.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

if (!Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = () => {};
}
