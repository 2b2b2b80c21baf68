/**
 * The identity service's error codes (SPEC §8), as the firebase JS SDK raises them
 * (`FirebaseError.code`, "auth/…"), each mapped to one sentence a person understands.
 * One table, so every screen says the same thing for the same failure.
 */
export const IDENTITY_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  // Credentials
  'auth/wrong-password': 'The email or password is not right. Check them and try again.',
  'auth/invalid-credential': 'The email or password is not right. Check them and try again.',
  'auth/user-not-found': 'There is no account with that email address. Check it, or sign in with your work account.',
  'auth/email-already-in-use': 'An account with that email address already exists. Sign in instead.',
  'auth/invalid-email': 'That email address is not valid. Use one like name@company.com.',
  'auth/missing-email': 'Enter your email address.',
  'auth/missing-password': 'Enter your password.',
  'auth/weak-password': 'That password is too weak. Use at least 6 characters.',
  'auth/too-many-requests': 'Too many attempts from this device. Wait a few minutes, then try again.',
  'auth/user-disabled': 'Your sign-in account has been disabled. Ask your administrator for help.',

  // Out-of-band codes: password reset, email sign-in links
  'auth/expired-action-code': 'This link has expired. Ask for a new one.',
  'auth/invalid-action-code': 'This link is not valid any more: it may have been used already. Ask for a new one.',
  'auth/invalid-continue-uri': 'The link to return to the portal is not valid. Ask your administrator to check the sign-in settings.',
  'auth/missing-continue-uri': 'The link to return to the portal is missing. Ask your administrator to check the sign-in settings.',
  'auth/unauthorized-continue-uri': 'This portal address is not allowed to send sign-in emails. Ask your administrator to allow it.',

  // Session and account state
  'auth/requires-recent-login': 'For your security, sign in again before doing that.',
  'auth/user-token-expired': 'Your sign-in has expired. Please sign in again.',
  'auth/invalid-user-token': 'Your sign-in is no longer valid. Please sign in again.',
  'auth/user-mismatch': 'Those credentials belong to a different account from the one signed in. Use the same account.',
  'auth/multi-factor-auth-required':
    'Your account needs a second sign-in step, which the portal does not support yet. Sign in with your work account instead.',
  'auth/account-exists-with-different-credential':
    'An account already exists with this email address. Sign in the way you did before, then try again.',
  'auth/credential-already-in-use': 'These credentials are already linked to another account.',
  'auth/admin-restricted-operation': 'Only your administrator can create accounts. Ask them for access.',
  'auth/unverified-email': 'Confirm your email address first, using the link we sent you.',
  'auth/rejected-credential': 'The work account refused the sign-in. Try again.',

  // Work-account (SSO) popups
  'auth/popup-blocked': 'The browser blocked the sign-in window. Allow pop-ups for this site, then try again.',
  'auth/popup-closed-by-user': 'The sign-in window was closed before signing in finished. Try again.',
  'auth/cancelled-popup-request': 'Another sign-in window was opened, so this one was cancelled. Finish signing in there or try again.',
  'auth/unauthorized-domain': 'This portal address is not allowed to sign in with the work account. Ask your administrator to allow it.',
  'auth/operation-not-supported-in-this-environment': 'This browser cannot open the work-account sign-in window. Try another browser.',
  'auth/user-cancelled': 'Signing in was cancelled. Try again when you are ready.',
  'auth/redirect-cancelled-by-user': 'Signing in was cancelled. Try again when you are ready.',
  'auth/invalid-oauth-provider': 'The work-account sign-in is not set up correctly. Ask your administrator.',
  'auth/operation-not-allowed': 'This way of signing in is turned off for the portal. Use another one or ask your administrator.',

  // Browser and network
  'auth/web-storage-unsupported': 'This browser blocks the storage sign-in needs. Turn off private mode or allow site data, then try again.',
  'auth/network-request-failed': 'The sign-in service could not be reached. Check your connection and try again.',
  'auth/timeout': 'The sign-in service took too long to answer. Try again.',

  // reCAPTCHA / bot protection
  'auth/missing-recaptcha-token': 'The robot check did not complete. Reload the page and try again.',
  'auth/invalid-recaptcha-token': 'The robot check failed. Reload the page and try again.',
  'auth/captcha-check-failed': 'The robot check failed. Reload the page and try again.',
  'auth/invalid-recaptcha-action': 'The robot check failed. Reload the page and try again.',
  'auth/missing-recaptcha-version': 'The robot check could not run. Reload the page and try again.',
  'auth/invalid-recaptcha-version': 'The robot check could not run. Reload the page and try again.',
  'auth/recaptcha-not-enabled': 'The robot check is not set up for the portal. Ask your administrator.',
  'auth/invalid-req-type': 'The robot check could not run. Reload the page and try again.',
  'auth/missing-client-type': 'The robot check could not run. Reload the page and try again.',

  // Configuration and internal
  'auth/internal-error': 'The sign-in service had a problem. Try again in a moment.',
  'auth/argument-error': 'Sign-in was called with something missing. Reload the page and try again.',
  'auth/invalid-api-key': 'The portal’s sign-in settings are wrong (API key). Ask your administrator.',
  'auth/app-not-authorized': 'The portal is not allowed to use this sign-in service. Ask your administrator.',
  'auth/invalid-tenant-id': 'The portal’s sign-in settings are wrong (tenant). Ask your administrator.',
  'auth/tenant-id-mismatch': 'That account belongs to another organisation’s portal.',
  'auth/emulator-config-failed': 'The local sign-in service could not be reached. Reload the page.',
  'auth/invalid-hosting-link-domain': 'The sign-in link settings are wrong. Ask your administrator.',
  'auth/quota-exceeded': 'The sign-in service is busy. Try again later.',
};

/** Codes after which the user is signed out everywhere (SPEC §8). */
export const SIGN_OUT_CODES: ReadonlySet<string> = new Set(['auth/user-disabled', 'auth/user-token-expired']);

const FALLBACK = 'Sign-in did not work. Try again, or ask your administrator if it keeps happening.';

/** The identity error code of a thrown value ("auth/…"), or null. */
export function identityErrorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('auth/') ? code : null;
}

/** The sentence for an identity error code; unknown codes get a generic sentence. */
export function identityErrorMessage(code: string): string {
  return IDENTITY_ERROR_MESSAGES[code] ?? FALLBACK;
}

/** An identity-service failure with a message fit to show. */
export class IdentityError extends Error {
  readonly code: string;
  constructor(code: string, cause?: unknown) {
    super(identityErrorMessage(code), { cause });
    this.name = 'IdentityError';
    this.code = code;
  }

  /** user-disabled and user-token-expired end the session (SPEC §8). */
  get signsOut(): boolean {
    return SIGN_OUT_CODES.has(this.code);
  }
}

/** Wraps an SDK error as an {@link IdentityError}; anything else passes through. */
export function toIdentityError(error: unknown): unknown {
  if (error instanceof IdentityError) return error;
  const code = identityErrorCode(error);
  return code ? new IdentityError(code, error) : error;
}
