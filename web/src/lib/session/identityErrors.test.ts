import { describe, expect, it } from 'vitest';
import { IDENTITY_ERROR_MESSAGES, IdentityError, identityErrorMessage, toIdentityError } from './identityErrors';

// Every identity-service code of SPEC §8 (plus auth/invalid-credential, which the SDK
// raises for a wrong password under email-enumeration protection).
const SPEC_CODES = [
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/user-not-found',
  'auth/email-already-in-use',
  'auth/invalid-email',
  'auth/too-many-requests',
  'auth/user-disabled',
  'auth/expired-action-code',
  'auth/invalid-action-code',
  'auth/requires-recent-login',
  'auth/user-token-expired',
  'auth/invalid-user-token',
  'auth/network-request-failed',
  'auth/multi-factor-auth-required',
  'auth/user-mismatch',
  'auth/invalid-continue-uri',
  'auth/popup-blocked',
  'auth/popup-closed-by-user',
  'auth/cancelled-popup-request',
  'auth/unauthorized-domain',
  'auth/web-storage-unsupported',
  'auth/missing-recaptcha-token',
  'auth/internal-error',
  'auth/argument-error',
  // captcha errors
  'auth/captcha-check-failed',
  'auth/invalid-recaptcha-token',
  'auth/invalid-recaptcha-action',
  'auth/missing-recaptcha-version',
  'auth/invalid-recaptcha-version',
  'auth/recaptcha-not-enabled',
];

describe('identity error catalogue (SPEC §8)', () => {
  it('maps every code to its own clear sentence', () => {
    for (const code of SPEC_CODES) {
      const message = IDENTITY_ERROR_MESSAGES[code];
      expect(message, code).toBeTruthy();
      expect(message, code).toMatch(/^[A-Z].*[.]$/);
      expect(message, code).not.toContain('auth/');
      expect(message, code).not.toMatch(/firebase/i);
    }
  });

  it('says the same thing for a wrong password and invalid credentials', () => {
    expect(identityErrorMessage('auth/wrong-password')).toBe(identityErrorMessage('auth/invalid-credential'));
    expect(identityErrorMessage('auth/wrong-password')).toBe('The email or password is not right. Check them and try again.');
  });

  it('has a generic sentence for codes it does not know', () => {
    expect(identityErrorMessage('auth/something-new')).toMatch(/^Sign-in did not work/);
  });

  it('marks user-disabled and user-token-expired as signing the user out', () => {
    expect(new IdentityError('auth/user-disabled').signsOut).toBe(true);
    expect(new IdentityError('auth/user-token-expired').signsOut).toBe(true);
    expect(new IdentityError('auth/wrong-password').signsOut).toBe(false);
  });

  it('wraps SDK errors by their code and passes anything else through', () => {
    const sdkError = Object.assign(new Error('Firebase: Error (auth/popup-blocked).'), { code: 'auth/popup-blocked' });
    const wrapped = toIdentityError(sdkError);
    expect(wrapped).toBeInstanceOf(IdentityError);
    expect(wrapped).toMatchObject({ code: 'auth/popup-blocked', message: IDENTITY_ERROR_MESSAGES['auth/popup-blocked'] });
    const other = new TypeError('x');
    expect(toIdentityError(other)).toBe(other);
  });
});
