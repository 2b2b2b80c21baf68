import { useState, type ReactNode, type Ref } from 'react';
import { Alert, Anchor, Button, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormError, LoginFlow, View } from './useLoginFlow';
import { validateCredentials, validateEmail, type FieldErrors } from './validation';

/** What a view with the email field gets: the flow, and the field's ref for its focus. */
interface ViewProps {
  flow: LoginFlow;
  emailRef: Ref<HTMLInputElement>;
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

/** The failure of the last request, above a form's fields. */
function ErrorAlert({ error }: { error: FormError | null }) {
  return (
    error && (
      <Alert color="red" variant="light" title={error.title} data-testid="login-error">
        {error.message}
      </Alert>
    )
  );
}

/** A step the page is waiting for, in place of a form. */
function Waiting({ children }: { children: ReactNode }) {
  return (
    <Group justify="center" gap="sm" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text size="sm">{children}</Text>
    </Group>
  );
}

/** A form's heading and the sentence under it. */
function FormHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Stack>
  );
}

/** The plain sign-in: email and password, a sign-in link, or the work account. */
export function SignInView({ flow, emailRef, passwordRef }: ViewProps & { passwordRef: Ref<HTMLInputElement> }) {
  const [passwordVisible, setPasswordVisible] = useState(false);
  const errors: FieldErrors = flow.submitted ? validateCredentials(flow.email, flow.password) : {};
  return (
    <>
      <form noValidate onSubmit={flow.onSubmit} aria-label="Sign in with email and password">
        <Stack gap="md">
          {flow.notice && (
            <Alert color="teal" variant="light" role="status">
              {flow.notice}
            </Alert>
          )}
          <ErrorAlert error={flow.formError} />
          <EmailInput ref={emailRef} value={flow.email} onChange={flow.setEmail} error={errors.email} />
          <Stack gap={6}>
            <PasswordInput
              ref={passwordRef}
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              size="md"
              value={flow.password}
              onChange={(event) => flow.setPassword(event.currentTarget.value)}
              error={errors.password}
              visible={passwordVisible}
              onVisibilityChange={setPasswordVisible}
              visibilityToggleButtonProps={{
                'aria-label': passwordVisible ? 'Hide password' : 'Show password',
              }}
            />
            <Group justify="flex-end">
              <Anchor component="button" type="button" size="sm" onClick={flow.onForgotPassword} disabled={flow.busy}>
                Forgot password?
              </Anchor>
            </Group>
          </Stack>
          <Button type="submit" size="md" fullWidth loading={flow.pending === 'password'} disabled={flow.busy}>
            Sign in
          </Button>
          <Button
            variant="light"
            size="md"
            fullWidth
            loading={flow.pending === 'link'}
            disabled={flow.busy}
            onClick={() => void flow.onEmailLink()}
          >
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
        loading={flow.pending === 'workAccount'}
        disabled={flow.busy}
        onClick={flow.onWorkAccount}
      >
        Sign in with work account
      </Button>
    </>
  );
}

/** The email field of a form that needs only the email: checked once the form was sent. */
function FlowEmail({ flow, emailRef }: ViewProps) {
  return <EmailInput ref={emailRef} value={flow.email} onChange={flow.setEmail} error={flow.submitted ? validateEmail(flow.email) : undefined} />;
}

/** "Forgot password?": asks for the account's email to send a reset link to. */
export function ForgotView({ flow, emailRef }: ViewProps) {
  return (
    <form noValidate onSubmit={flow.onForgot} aria-label="Reset your password">
      <Stack gap="md">
        <FormHeading title="Reset your password">
          Enter the email address of your account. We will email you a link to choose a new password.
        </FormHeading>
        <ErrorAlert error={flow.formError} />
        <FlowEmail flow={flow} emailRef={emailRef} />
        <Button type="submit" size="md" fullWidth loading={flow.pending === 'forgot'} disabled={flow.busy}>
          Send reset link
        </Button>
        <Button variant="subtle" size="sm" onClick={flow.backToSignIn} disabled={flow.busy}>
          Back to sign in
        </Button>
      </Stack>
    </form>
  );
}

/** A reset link or a sign-in link is on its way. */
export function EmailSentView({ view, onBack }: { view: Extract<View, { kind: 'forgotSent' | 'linkSent' }>; onBack: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="teal" variant="light" title="Check your email" role="status">
        {view.kind === 'forgotSent'
          ? `If there is an account for ${view.email}, a link to choose a new password is on its way.`
          : `We sent a sign-in link to ${view.email}. Open it in this browser to sign in.`}
      </Alert>
      <Button variant="default" size="md" fullWidth onClick={() => onBack()}>
        Back to sign in
      </Button>
    </Stack>
  );
}

/** A password reset link: checks it, then asks for the new password. */
export function ResetView({ flow, view }: { flow: LoginFlow; view: Extract<View, { kind: 'reset' }> }) {
  const [newPasswordVisible, setNewPasswordVisible] = useState(false);
  if (view.email === null) return <Waiting>Checking your link…</Waiting>;
  return (
    <form noValidate onSubmit={flow.onReset} aria-label="Choose a new password">
      <Stack gap="md">
        <FormHeading title="Choose a new password">For {view.email}</FormHeading>
        <ErrorAlert error={flow.formError} />
        <input type="email" name="username" autoComplete="username" value={view.email} readOnly hidden />
        <PasswordInput
          label="New password"
          name="new-password"
          autoComplete="new-password"
          required
          size="md"
          value={flow.newPassword}
          onChange={(event) => flow.setNewPassword(event.currentTarget.value)}
          error={flow.submitted && flow.newPassword.length < 6 ? 'Use at least 6 characters' : undefined}
          visible={newPasswordVisible}
          onVisibilityChange={setNewPasswordVisible}
          visibilityToggleButtonProps={{ 'aria-label': newPasswordVisible ? 'Hide password' : 'Show password' }}
        />
        <Button type="submit" size="md" fullWidth loading={flow.pending === 'reset'} disabled={flow.busy}>
          Save password and sign in
        </Button>
        <Button variant="subtle" size="sm" onClick={flow.backToSignIn} disabled={flow.busy}>
          Back to sign in
        </Button>
      </Stack>
    </form>
  );
}

/** A sign-in link: signs in with it, first asking for the email when this browser does not know it. */
export function CompleteLinkView({ flow, view, emailRef }: ViewProps & { view: Extract<View, { kind: 'completeLink' }> }) {
  if (!view.askEmail) return <Waiting>Signing you in…</Waiting>;
  return (
    <form noValidate aria-label="Confirm your email" onSubmit={flow.onConfirmLinkEmail}>
      <Stack gap="md">
        <FormHeading title="Confirm your email">To finish signing in, enter the email address the link was sent to.</FormHeading>
        <ErrorAlert error={flow.formError} />
        <FlowEmail flow={flow} emailRef={emailRef} />
        <Button type="submit" size="md" fullWidth loading={flow.pending === 'completeLink'} disabled={flow.busy}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
