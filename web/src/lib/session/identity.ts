import { config } from '../config';

/**
 * The identity service as the app uses it: sign-in (password, work account, email link),
 * password reset, the persisted identity user, sign-out. Implemented over the firebase JS
 * SDK in firebase.ts, loaded on first use so no route pays for the SDK up front.
 * Every method rejects with an {@link IdentityError} carrying a readable message.
 */
export interface IdentityTokens {
  /** The identity service's ID token, exchanged at `GET /api/v1/auth/login`. */
  idToken: string;
  /** For work-account sign-in: the provider's own ID token. */
  oauthIdToken?: string;
}

export interface IdentityClient {
  /** Emulator mode: the work-account sign-in is simulated and needs the work email. */
  readonly emulator: boolean;
  signInWithPassword(email: string, password: string): Promise<IdentityTokens>;
  /** Production: the provider's popup. Emulator: a simulated credential for `workEmail`. */
  signInWithWorkAccount(workEmail?: string): Promise<IdentityTokens>;
  /** Sends the password-reset email; its link comes back to `continueUrl`. */
  sendPasswordReset(email: string, continueUrl: string): Promise<void>;
  /** Checks a reset code and answers the account's email. */
  verifyPasswordResetCode(code: string): Promise<string>;
  confirmPasswordReset(code: string, newPassword: string): Promise<void>;
  /** Sends a passwordless sign-in link that opens `continueUrl`. */
  sendSignInLink(email: string, continueUrl: string): Promise<void>;
  isSignInLink(url: string): boolean;
  signInWithLink(email: string, url: string): Promise<IdentityTokens>;
  /** A fresh ID token of the persisted identity user, or null when nobody is signed in. */
  currentIdToken(): Promise<string | null>;
  signOut(): Promise<void>;
}

let client: Promise<IdentityClient> | null = null;
let loaded = false;

/** The identity client, loading the SDK chunk the first time. */
export function loadIdentity(): Promise<IdentityClient> {
  client ??= import('./firebase')
    .then(({ createFirebaseIdentity }) => {
      loaded = true;
      return createFirebaseIdentity(config);
    })
    .catch((error: unknown) => {
      client = null; // a failed chunk load may succeed next time
      throw error;
    });
  return client;
}

/** Starts loading the SDK in the background (e.g. while the login form is on screen). */
export function preloadIdentity(): void {
  loadIdentity().catch(() => {
    // Reported when actually used.
  });
}

/**
 * Whether the SDK holds a signed-in user from an earlier visit. It persists in local
 * storage under `firebase:authUser:<apiKey>:…`, so this answers without loading the SDK.
 */
export function hasPersistedIdentityUser(apiKey = config.identity.apiKey, store: Storage | null = safeLocalStorage()): boolean {
  if (!store) return false;
  const prefix = `firebase:authUser:${apiKey}:`;
  for (let i = 0; i < store.length; i++) {
    if (store.key(i)?.startsWith(prefix)) return true;
  }
  return false;
}

/**
 * Signs out of the identity service if anything is signed in there (loaded SDK or a
 * persisted user); never loads the SDK just to find nobody. Rejects when sign-out fails.
 */
export async function signOutOfIdentity(): Promise<void> {
  if (!loaded && !hasPersistedIdentityUser()) return;
  await (await loadIdentity()).signOut();
}

/** {@link signOutOfIdentity}, best effort: for clean-ups that must not fail. */
export async function trySignOutOfIdentity(): Promise<void> {
  try {
    await signOutOfIdentity();
  } catch {
    // A stale identity user only offers a silent login, which the server still checks.
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** For tests: replaces the client. */
export function setIdentityForTests(fake: IdentityClient | null): void {
  client = fake ? Promise.resolve(fake) : null;
  loaded = !!fake;
}
