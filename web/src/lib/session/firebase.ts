/**
 * The firebase JS SDK behind {@link IdentityClient}. This module is only ever loaded
 * through the dynamic import in identity.ts, so the SDK (≈130 KB) is its own chunk and
 * stays out of the first load of every route.
 */
import { initializeApp, type FirebaseApp } from 'firebase/app';
import {
  OAuthProvider,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  confirmPasswordReset,
  connectAuthEmulator,
  initializeAuth,
  isSignInWithEmailLink,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithEmailLink,
  signInWithPopup,
  signOut,
  verifyPasswordResetCode,
  type Auth,
  type UserCredential,
} from 'firebase/auth';
import type { AppConfig } from '../config';
import type { IdentityClient, IdentityTokens } from './identity';
import { toIdentityError } from './identityErrors';

/** The work-account provider (Microsoft Entra ID through the identity service). */
export const WORK_ACCOUNT_PROVIDER = 'microsoft.com';

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** "sam.sso@portico.test" → "Sam Sso". */
function nameFromEmail(email: string): string {
  return (email.split('@')[0] ?? email)
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * An unsigned provider ID token for the Auth Emulator, which accepts one in place of a
 * real Microsoft sign-in (the popup cannot work offline). Never used outside emulator mode.
 */
export function simulatedWorkAccountToken(email: string, now = Date.now()): string {
  const normalized = email.trim().toLowerCase();
  const iat = Math.floor(now / 1000);
  const header = { alg: 'none', typ: 'JWT' };
  const payload = {
    iss: 'https://login.microsoftonline.com/portico-emulator/v2.0',
    aud: 'portico-emulator',
    sub: `emulated-${normalized}`,
    email: normalized,
    email_verified: true,
    name: nameFromEmail(normalized),
    iat,
    exp: iat + 3600,
  };
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}.`;
}

async function tokensOf(result: UserCredential): Promise<IdentityTokens> {
  const idToken = await result.user.getIdToken();
  const oauthIdToken = OAuthProvider.credentialFromResult(result)?.idToken;
  return oauthIdToken ? { idToken, oauthIdToken } : { idToken };
}

/** Runs an SDK call, turning its errors into IdentityErrors with a readable message. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toIdentityError(error);
  }
}

export function createFirebaseIdentity(cfg: AppConfig): IdentityClient {
  const { apiKey, authDomain, projectId, appId, emulatorHost } = cfg.identity;
  const app: FirebaseApp = initializeApp({ apiKey, authDomain, projectId, appId });
  // No popup/redirect resolver here: the SDK would then load the auth domain's helper
  // iframe at start on some browsers. The popup sign-in passes it explicitly instead.
  const auth: Auth = initializeAuth(app, { persistence: browserLocalPersistence });
  if (cfg.tenantId) auth.tenantId = cfg.tenantId;
  if (emulatorHost) connectAuthEmulator(auth, `http://${emulatorHost}`, { disableWarnings: true });

  return {
    emulator: !!emulatorHost,

    signInWithPassword: (email, password) => guarded(async () => tokensOf(await signInWithEmailAndPassword(auth, email, password))),

    signInWithWorkAccount: (workEmail) =>
      guarded(async () => {
        if (emulatorHost) {
          if (!workEmail) throw Object.assign(new Error('work email required'), { code: 'auth/missing-email' });
          const credential = new OAuthProvider(WORK_ACCOUNT_PROVIDER).credential({ idToken: simulatedWorkAccountToken(workEmail) });
          return tokensOf(await signInWithCredential(auth, credential));
        }
        const provider = new OAuthProvider(WORK_ACCOUNT_PROVIDER);
        provider.setCustomParameters({ prompt: 'select_account' });
        return tokensOf(await signInWithPopup(auth, provider, browserPopupRedirectResolver));
      }),

    sendPasswordReset: (email, continueUrl) => guarded(() => sendPasswordResetEmail(auth, email, { url: continueUrl })),

    verifyPasswordResetCode: (code) => guarded(() => verifyPasswordResetCode(auth, code)),

    confirmPasswordReset: (code, newPassword) => guarded(() => confirmPasswordReset(auth, code, newPassword)),

    sendSignInLink: (email, continueUrl) =>
      guarded(() => sendSignInLinkToEmail(auth, email, { url: continueUrl, handleCodeInApp: true })),

    isSignInLink: (url) => isSignInWithEmailLink(auth, url),

    signInWithLink: (email, url) => guarded(async () => tokensOf(await signInWithEmailLink(auth, email, url))),

    currentIdToken: () =>
      guarded(async () => {
        await auth.authStateReady();
        return auth.currentUser ? auth.currentUser.getIdToken() : null;
      }),

    signOut: () => guarded(() => signOut(auth)),
  };
}
