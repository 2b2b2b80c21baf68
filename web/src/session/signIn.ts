/**
 * Sign-in seam. The identity-service wiring (firebase JS SDK: email + password and
 * work-account SSO, then `GET /api/v1/auth/login`) lands in the next issue and replaces
 * the bodies below. Until then these fail honestly instead of pretending to succeed.
 */

export type SignInRequest =
  | { method: 'password'; email: string; password: string }
  | { method: 'workAccount' };

/** Raised while no identity service is wired in. */
export class SignInUnavailableError extends Error {
  constructor() {
    super('Sign-in is not available yet');
    this.name = 'SignInUnavailableError';
  }
}

/**
 * Signs the user in and, on success, fills the session store. Rejects with an Error whose
 * message is fit to show the user.
 */
export async function signIn(request: SignInRequest): Promise<void> {
  void request;
  throw new SignInUnavailableError();
}

/**
 * Route-guard seam (SPEC §2 guard step 3): tries to restore a session without user
 * interaction, e.g. from the identity SDK's persisted user. Resolves true when the
 * session store now holds a token. No identity service yet, so never.
 */
export async function trySilentLogin(): Promise<boolean> {
  return false;
}
