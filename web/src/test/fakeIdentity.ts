import { vi } from 'vitest';
import type { IdentityClient } from '../lib/session/identity';

/** A stand-in for the firebase-backed identity client; every method is a vi.fn. */
export function fakeIdentity(overrides: Partial<IdentityClient> = {}) {
  const fake = {
    emulator: true,
    signInWithPassword: vi.fn(async () => ({ idToken: 'id-token' })),
    signInWithWorkAccount: vi.fn(async () => ({ idToken: 'id-token', oauthIdToken: 'oauth-token' })),
    sendPasswordReset: vi.fn(async () => {}),
    verifyPasswordResetCode: vi.fn(async () => 'ada@example.com'),
    confirmPasswordReset: vi.fn(async () => {}),
    sendSignInLink: vi.fn(async () => {}),
    isSignInLink: vi.fn(() => true),
    signInWithLink: vi.fn(async () => ({ idToken: 'id-token' })),
    currentIdToken: vi.fn(async () => null as string | null),
    signOut: vi.fn(async () => {}),
  } satisfies IdentityClient;
  return Object.assign(fake, overrides);
}

export type FakeIdentity = ReturnType<typeof fakeIdentity>;
