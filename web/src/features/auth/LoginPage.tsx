import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import logoUrl from '../../assets/logo.svg';
import { config, isEmulatorMode, PRODUCTION } from '../../lib/config';
import { REDIRECT_PARAM, loginPath, paths, safeRedirectTarget } from '../../lib/paths';
import { loadIdentity, preloadIdentity, signIn, type SignInRequest } from '../../lib/session';
import { announceMenuError } from '../../lib/session/menuAlert';
import classes from './LoginPage.module.css';

// Emulator mode only, and only when asked for: its modal code stays out of this page.
const WorkAccountDialog = lazy(() => import('./WorkAccountDialog'));

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where the email for a passwordless sign-in link waits until the link is opened. */
export const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';

/** Query parameters of the identity service's email action links. */
const MODE_PARAM = 'mode';
const CODE_PARAM = 'oobCode';

interface FieldErrors {
  email?: string;
  password?: string;
}

export function validateEmail(email: string): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return 'Enter your email address';
  if (!EMAIL_PATTERN.test(trimmed)) return 'Enter a valid email address, like name@company.com';
  return undefined;
}

/** Client-side checks before anything is sent to the identity service. */
export function validateCredentials(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const emailError = validateEmail(email);
  if (emailError) errors.email = emailError;
  if (!password) errors.password = 'Enter your password';
  return errors;
}

/** The email field every form of the page shares. */
function EmailInput({
  ref,
  value,
  onChange,
  error,
}: {
  ref: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <TextInput
      ref={ref}
      label="Email"
      name="email"
      type="email"
      inputMode="email"
      autoComplete="username"
      placeholder="name@company.com"
      required
      size="md"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}

function WorkAccountIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="8.5" height="8.5" fill="#f25022" />
      <rect x="10.5" y="1" width="8.5" height="8.5" fill="#7fba00" />
      <rect x="1" y="10.5" width="8.5" height="8.5" fill="#00a4ef" />
      <rect x="10.5" y="10.5" width="8.5" height="8.5" fill="#ffb900" />
    </svg>
  );
}

type View =
  | { kind: 'signIn' }
  | { kind: 'forgot' }
  | { kind: 'forgotSent'; email: string }
  | { kind: 'linkSent'; email: string }
  | { kind: 'reset'; code: string; email: string | null }
  | { kind: 'completeLink'; link: string; askEmail: boolean };

type Pending = 'password' | 'workAccount' | 'link' | 'forgot' | 'reset' | 'completeLink' | null;

interface FormError {
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

export default function LoginPage() {
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
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [newPasswordVisible, setNewPasswordVisible] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const started = useRef(false);

  // The SDK is not part of this page's bundle: fetch it while the user types.
  useEffect(() => preloadIdentity(), []);

  /** Leaves an email-action view: back to the plain form, without the action's parameters. */
  function backToSignIn(error?: FormError, keepNotice = false) {
    setView({ kind: 'signIn' });
    setFormError(error ?? null);
    if (!keepNotice) setNotice(null);
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

  const errors: FieldErrors = submitted ? validateCredentials(email, password) : {};

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

  function onWorkAccount() {
    setNotice(null);
    if (emulator) {
      setWorkDialog({ email: EMAIL_PATTERN.test(email.trim()) ? email.trim() : '' });
      return;
    }
    void run({ method: 'workAccount' }, 'workAccount');
  }

  const busy = pending !== null;

  const errorAlert = formError && (
    <Alert color="red" variant="light" title={formError.title} data-testid="login-error">
      {formError.message}
    </Alert>
  );

  let body: ReactNode;
  switch (view.kind) {
    case 'forgot':
      body = (
        <form noValidate onSubmit={onForgot} aria-label="Reset your password">
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={2} size="h4">
                Reset your password
              </Title>
              <Text size="sm" c="dimmed">
                Enter the email address of your account. We will email you a link to choose a new password.
              </Text>
            </Stack>
            {errorAlert}
            <EmailInput ref={emailRef} value={email} onChange={setEmail} error={submitted ? validateEmail(email) : undefined} />
            <Button type="submit" size="md" fullWidth loading={pending === 'forgot'} disabled={busy}>
              Send reset link
            </Button>
            <Button variant="subtle" size="sm" onClick={() => backToSignIn()} disabled={busy}>
              Back to sign in
            </Button>
          </Stack>
        </form>
      );
      break;

    case 'forgotSent':
    case 'linkSent':
      body = (
        <Stack gap="md">
          <Alert color="teal" variant="light" title="Check your email" role="status">
            {view.kind === 'forgotSent'
              ? `If there is an account for ${view.email}, a link to choose a new password is on its way.`
              : `We sent a sign-in link to ${view.email}. Open it in this browser to sign in.`}
          </Alert>
          <Button variant="default" size="md" fullWidth onClick={() => backToSignIn()}>
            Back to sign in
          </Button>
        </Stack>
      );
      break;

    case 'reset':
      body =
        view.email === null ? (
          <Group justify="center" gap="sm" role="status" aria-live="polite">
            <Loader size="sm" />
            <Text size="sm">Checking your link…</Text>
          </Group>
        ) : (
          <form noValidate onSubmit={onReset} aria-label="Choose a new password">
            <Stack gap="md">
              <Stack gap={4}>
                <Title order={2} size="h4">
                  Choose a new password
                </Title>
                <Text size="sm" c="dimmed">
                  For {view.email}
                </Text>
              </Stack>
              {errorAlert}
              <input type="email" name="username" autoComplete="username" value={view.email} readOnly hidden />
              <PasswordInput
                label="New password"
                name="new-password"
                autoComplete="new-password"
                required
                size="md"
                value={newPassword}
                onChange={(event) => setNewPassword(event.currentTarget.value)}
                error={submitted && newPassword.length < 6 ? 'Use at least 6 characters' : undefined}
                visible={newPasswordVisible}
                onVisibilityChange={setNewPasswordVisible}
                visibilityToggleButtonProps={{ 'aria-label': newPasswordVisible ? 'Hide password' : 'Show password' }}
              />
              <Button type="submit" size="md" fullWidth loading={pending === 'reset'} disabled={busy}>
                Save password and sign in
              </Button>
              <Button variant="subtle" size="sm" onClick={() => backToSignIn()} disabled={busy}>
                Back to sign in
              </Button>
            </Stack>
          </form>
        );
      break;

    case 'completeLink':
      body = view.askEmail ? (
        <form
          noValidate
          aria-label="Confirm your email"
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            if (validateEmail(email)) return emailRef.current?.focus();
            void completeLink(view.link, email.trim());
          }}
        >
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={2} size="h4">
                Confirm your email
              </Title>
              <Text size="sm" c="dimmed">
                To finish signing in, enter the email address the link was sent to.
              </Text>
            </Stack>
            {errorAlert}
            <EmailInput ref={emailRef} value={email} onChange={setEmail} error={submitted ? validateEmail(email) : undefined} />
            <Button type="submit" size="md" fullWidth loading={pending === 'completeLink'} disabled={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      ) : (
        <Group justify="center" gap="sm" role="status" aria-live="polite">
          <Loader size="sm" />
          <Text size="sm">Signing you in…</Text>
        </Group>
      );
      break;

    case 'signIn':
      body = (
        <>
          <form noValidate onSubmit={onSubmit} aria-label="Sign in with email and password">
            <Stack gap="md">
              {notice && (
                <Alert color="teal" variant="light" role="status">
                  {notice}
                </Alert>
              )}
              {errorAlert}
              <EmailInput ref={emailRef} value={email} onChange={setEmail} error={errors.email} />
              <Stack gap={6}>
                <PasswordInput
                  ref={passwordRef}
                  label="Password"
                  name="password"
                  autoComplete="current-password"
                  required
                  size="md"
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={errors.password}
                  visible={passwordVisible}
                  onVisibilityChange={setPasswordVisible}
                  visibilityToggleButtonProps={{
                    'aria-label': passwordVisible ? 'Hide password' : 'Show password',
                  }}
                />
                <Group justify="flex-end">
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => {
                      setFormError(null);
                      setNotice(null);
                      setSubmitted(false);
                      setView({ kind: 'forgot' });
                    }}
                    disabled={busy}
                  >
                    Forgot password?
                  </Anchor>
                </Group>
              </Stack>
              <Button type="submit" size="md" fullWidth loading={pending === 'password'} disabled={busy}>
                Sign in
              </Button>
              <Button variant="light" size="md" fullWidth loading={pending === 'link'} disabled={busy} onClick={() => void onEmailLink()}>
                Email me a sign-in link
              </Button>
            </Stack>
          </form>

          <Divider label="or" labelPosition="center" />

          <Button
            type="button"
            variant="default"
            size="md"
            fullWidth
            leftSection={<WorkAccountIcon />}
            loading={pending === 'workAccount'}
            disabled={busy}
            onClick={onWorkAccount}
          >
            Sign in with work account
          </Button>
        </>
      );
      break;
  }

  return (
    <div className={classes.page}>
      <Paper component="section" className={classes.card} withBorder shadow="md" radius="lg" aria-labelledby={headingId}>
        <Stack gap="xl">
          <Stack align="center" gap={6}>
            <img src={logoUrl} alt={`${config.productName} logo`} width={56} height={56} className={classes.logo} />
            <Title order={1} id={headingId} className={classes.title}>
              {config.productName}
            </Title>
            <Text c="dimmed" size="sm" ta="center">
              Sign in to your staff portal
            </Text>
            {config.environment !== PRODUCTION && (
              <Badge variant="light" color="orange" radius="sm" mt={4}>
                {config.environment}
              </Badge>
            )}
          </Stack>
          {body}
        </Stack>
      </Paper>
      <Text size="xs" c="dimmed" ta="center" className={classes.footer}>
        For staff of the company only. Access is logged.
      </Text>

      {workDialog && (
        <Suspense fallback={null}>
          <WorkAccountDialog
            opened
            initialEmail={workDialog.email}
            validate={validateEmail}
            onCancel={() => setWorkDialog(null)}
            onSubmit={(workEmail) => {
              setWorkDialog(null);
              void run({ method: 'workAccount', workEmail }, 'workAccount');
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
