import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import logoUrl from '../assets/logo.svg';
import { config, PRODUCTION } from '../app/config';
import { REDIRECT_PARAM, safeRedirectTarget } from '../app/paths';
import { signIn, type SignInRequest } from '../session';
import classes from './LoginPage.module.css';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface FieldErrors {
  email?: string;
  password?: string;
}

/** Client-side checks before anything is sent to the identity service. */
export function validateCredentials(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = 'Enter your email address';
  else if (!EMAIL_PATTERN.test(trimmed)) errors.email = 'Enter a valid email address, like name@company.com';
  if (!password) errors.password = 'Enter your password';
  return errors;
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

export default function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState<SignInRequest['method'] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const headingId = useId();

  // Field messages appear after the first submit and then follow the user's typing.
  const errors = submitted ? validateCredentials(email, password) : {};

  async function run(request: SignInRequest) {
    setFormError(null);
    setPending(request.method);
    try {
      await signIn(request);
      navigate(safeRedirectTarget(searchParams.get(REDIRECT_PARAM)), { replace: true });
    } catch (error) {
      setFormError(error instanceof Error && error.message ? error.message : 'Sign-in failed');
    } finally {
      setPending(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = validateCredentials(email, password);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    void run({ method: 'password', email: email.trim(), password });
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

          <form noValidate onSubmit={onSubmit} aria-label="Sign in with email and password">
            <Stack gap="md">
              {formError && (
                <Alert color="red" variant="light" title="Sign-in failed" data-testid="login-error">
                  {formError}
                </Alert>
              )}
              <TextInput
                ref={emailRef}
                label="Email"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="username"
                placeholder="name@company.com"
                required
                size="md"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                error={errors.email}
              />
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
              <Button type="submit" size="md" fullWidth loading={pending === 'password'} disabled={pending !== null}>
                Sign in
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
            disabled={pending !== null}
            onClick={() => void run({ method: 'workAccount' })}
          >
            Sign in with work account
          </Button>
        </Stack>
      </Paper>
      <Text size="xs" c="dimmed" ta="center" className={classes.footer}>
        For staff of the company only. Access is logged.
      </Text>
    </div>
  );
}
