import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { isEmulatorMode } from '../../lib/config';
import { REDIRECT_PARAM, loginPath, paths, safeRedirectTarget } from '../../lib/paths';
import { loadIdentity, preloadIdentity, signIn, type SignInRequest } from '../../lib/session';
import { announceMenuError } from '../../lib/session/menuAlert';
import { isEmail, validateCredentials, validateEmail } from './validation';

/** Where the email for a passwordless sign-in link waits until the link is opened. */
export const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';

/** Query parameters of the identity service's email action links. */
const MODE_PARAM = 'mode';
const CODE_PARAM = 'oobCode';

/** What the sign-in page shows. */
export type View =
  | { kind: 'signIn' }
  | { kind: 'forgot' }
  | { kind: 'forgotSent'; email: string }
  | { kind: 'linkSent'; email: string }
  | { kind: 'reset'; code: string; email: string | null }
  | { kind: 'completeLink'; link: string; askEmail: boolean };

/** The request under way, if any: its button shows the spinner, every button is off. */
export type Pending = 'password' | 'workAccount' | 'link' | 'forgot' | 'reset' | 'completeLink' | null;

export interface FormError {
  title: string;
  message: string;
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

function readStoredEmail(): string | null {
  try {
    return window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    return null;
  }
}

function storeEmail(email: string | null): void {
  try {
    if (email) window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, email);
    else window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    // Without storage the link asks for the email when opened.
  }
}

/** The sign-in flow as its views use it; the fields' refs go separately to the views with those fields. */
export type LoginFlow = Omit<ReturnType<typeof useLoginFlow>, 'emailRef' | 'passwordRef'>;

/**
 * The state and actions of the login page's sign-in flow: the view shown, the fields typed,
 * the request under way and its outcome. Completes an email action link (password reset,
 * sign-in link) the page was opened with, and leaves for the redirect target once signed in.
 */
export function useLoginFlow() {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const target = safeRedirectTarget(searchParams.get(REDIRECT_PARAM));
  const emulator = isEmulatorMode();
  // Where emailed links (reset, sign-in) come back to: this page, with the same target.
  const continueUrl = `${window.location.origin}${target === paths.home ? paths.login : loginPath(target)}`;

  const [view, setView] = useState<View>(() => {
    const code = searchParams.get(CODE_PARAM);
    const mode = searchParams.get(MODE_PARAM);
    if (code && mode === 'resetPassword') return { kind: 'reset', code, email: null };
    if (code && mode === 'signIn') {
      // The link as opened: this page's address with the action's parameters.
      const link = `${window.location.origin}${location.pathname}${location.search}`;
      return { kind: 'completeLink', link, askEmail: !readStoredEmail() };
    }
    return { kind: 'signIn' };
  });
  const [email, setEmail] = useState(() => readStoredEmail() ?? '');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [workDialog, setWorkDialog] = useState<{ email: string } | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  // The SDK is not part of this page's bundle: fetch it while the user types.
  useEffect(() => preloadIdentity(), []);

  /** Leaves an email-action view: back to the plain form, without the action's parameters. */
  function backToSignIn(error?: FormError) {
    setView({ kind: 'signIn' });
    setFormError(error ?? null);
    setNotice(null);
    setSubmitted(false);
    if (searchParams.has(CODE_PARAM) || searchParams.has(MODE_PARAM)) {
      const next = new URLSearchParams();
      const redirect = searchParams.get(REDIRECT_PARAM);
      if (redirect) next.set(REDIRECT_PARAM, redirect);
      setSearchParams(next, { replace: true });
    }
  }

  /**
   * Leaves this page for the target once signed in. The user is signed in whatever happens
   * here: a target the router refuses (it throws) means home, never "sign-in failed".
   */
  async function finishSignIn() {
    try {
      await navigate(target, { replace: true });
    } catch {
      await navigate(paths.home, { replace: true });
    }
    announceMenuError();
  }

  async function run(request: SignInRequest, kind: Exclude<Pending, null>) {
    setFormError(null);
    setPending(kind);
    try {
      await signIn(request);
      if (request.method === 'emailLink') storeEmail(null);
    } catch (error) {
      setPending(null);
      setFormError({ title: 'Sign-in failed', message: messageOf(error, 'Sign-in failed') });
      return false;
    }
    setPending(null);
    await finishSignIn();
    return true;
  }

  // An email action link opened this page: complete it (once, even under StrictMode).
  useEffect(() => {
    if (started.current) return;
    if (view.kind === 'reset' && view.email === null) {
      started.current = true;
      const { code } = view;
      loadIdentity()
        .then((identity) => identity.verifyPasswordResetCode(code))
        .then(
          (accountEmail) => setView({ kind: 'reset', code, email: accountEmail }),
          (error: unknown) => backToSignIn({ title: 'Password reset failed', message: messageOf(error, 'This link cannot be used.') }),
        );
    } else if (view.kind === 'completeLink' && !view.askEmail) {
      started.current = true;
      void completeLink(view.link, readStoredEmail() ?? '');
    }
    // Runs once for the view the page opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function completeLink(link: string, linkEmail: string) {
    setPending('completeLink');
    setFormError(null);
    try {
      const identity = await loadIdentity();
      if (!identity.isSignInLink(link)) {
        setPending(null);
        return backToSignIn({ title: 'Sign-in failed', message: 'This sign-in link is not valid. Ask for a new one.' });
      }
    } catch (error) {
      setPending(null);
      return backToSignIn({ title: 'Sign-in failed', message: messageOf(error, 'Sign-in failed') });
    }
    const ok = await run({ method: 'emailLink', email: linkEmail, link }, 'completeLink');
    if (!ok) {
      // The link is spent or refused: back to the form, keeping the message.
      setView({ kind: 'signIn' });
      const next = new URLSearchParams();
      const redirect = searchParams.get(REDIRECT_PARAM);
      if (redirect) next.set(REDIRECT_PARAM, redirect);
      setSearchParams(next, { replace: true });
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setNotice(null);
    const found = validateCredentials(email, password);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    void run({ method: 'password', email: email.trim(), password }, 'password');
  }

  async function onEmailLink() {
    setNotice(null);
    const problem = validateEmail(email);
    if (problem) {
      setSubmitted(true);
      setFormError(null);
      return emailRef.current?.focus();
    }
    await sendEmail('link', 'link', async (identity, address) => {
      await identity.sendSignInLink(address, continueUrl);
      storeEmail(address);
      setView({ kind: 'linkSent', email: address });
    });
  }

  /** Sends one of the identity service's emails to the typed address, showing failures inline. */
  async function sendEmail(
    kind: 'link' | 'forgot',
    what: string,
    send: (identity: Awaited<ReturnType<typeof loadIdentity>>, address: string) => Promise<void>,
  ) {
    setFormError(null);
    setPending(kind);
    try {
      await send(await loadIdentity(), email.trim());
    } catch (error) {
      setFormError({ title: `Could not send the ${what}`, message: messageOf(error, `The ${what} could not be sent.`) });
    } finally {
      setPending(null);
    }
  }

  /** Opens the "forgot password" form, with the email typed so far. */
  function onForgotPassword() {
    setFormError(null);
    setNotice(null);
    setSubmitted(false);
    setView({ kind: 'forgot' });
  }

  async function onForgot(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (validateEmail(email)) return emailRef.current?.focus();
    await sendEmail('forgot', 'email', async (identity, address) => {
      await identity.sendPasswordReset(address, continueUrl);
      setView({ kind: 'forgotSent', email: address });
    });
  }

  async function onReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (view.kind !== 'reset' || !view.email) return;
    setSubmitted(true);
    if (newPassword.length < 6) return;
    const { code, email: accountEmail } = view;
    setFormError(null);
    setPending('reset');
    try {
      const identity = await loadIdentity();
      await identity.confirmPasswordReset(code, newPassword);
    } catch (error) {
      setPending(null);
      setFormError({ title: 'Password reset failed', message: messageOf(error, 'The password could not be changed.') });
      return;
    }
    setPending(null);
    setEmail(accountEmail);
    backToSignIn(undefined);
    setNotice('Your password was changed. Signing you in…');
    const ok = await run({ method: 'password', email: accountEmail, password: newPassword }, 'password');
    if (!ok) setNotice('Your password was changed.');
  }

  /** A sign-in link opened in another browser: completes it with the email typed. */
  function onConfirmLinkEmail(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (view.kind !== 'completeLink') return;
    setSubmitted(true);
    if (validateEmail(email)) return emailRef.current?.focus();
    void completeLink(view.link, email.trim());
  }

  function onWorkAccount() {
    setNotice(null);
    if (emulator) {
      setWorkDialog({ email: isEmail(email) ? email.trim() : '' });
      return;
    }
    void run({ method: 'workAccount' }, 'workAccount');
  }

  /** The work email chosen in the emulator's dialog: signs in as it. */
  function onWorkDialogSubmit(workEmail: string) {
    setWorkDialog(null);
    void run({ method: 'workAccount', workEmail }, 'workAccount');
  }

  return {
    view,
    email,
    setEmail,
    password,
    setPassword,
    newPassword,
    setNewPassword,
    emailRef,
    passwordRef,
    submitted,
    pending,
    busy: pending !== null,
    formError,
    notice,
    workDialog,
    closeWorkDialog: () => setWorkDialog(null),
    backToSignIn: () => backToSignIn(),
    onSubmit,
    onEmailLink,
    onForgotPassword,
    onForgot,
    onReset,
    onConfirmLinkEmail,
    onWorkAccount,
    onWorkDialogSubmit,
  };
}
