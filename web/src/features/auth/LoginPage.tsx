import { lazy, Suspense, useId, type ReactNode } from 'react';
import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import logoUrl from '../../assets/logo.svg';
import { config, PRODUCTION } from '../../lib/config';
import { CompleteLinkView, EmailSentView, ForgotView, ResetView, SignInView } from './LoginViews';
import { useLoginFlow } from './useLoginFlow';
import { validateEmail } from './validation';
import classes from './LoginPage.module.css';

export { EMAIL_FOR_SIGN_IN_KEY } from './useLoginFlow';
export { validateCredentials, validateEmail } from './validation';

// Emulator mode only, and only when asked for: its modal code stays out of this page.
const WorkAccountDialog = lazy(() => import('./WorkAccountDialog'));

/** The sign-in page: the product's card around the view of the sign-in flow (see useLoginFlow). */
export default function LoginPage() {
  const { emailRef, passwordRef, ...flow } = useLoginFlow();
  const headingId = useId();
  const { view } = flow;

  let body: ReactNode;
  switch (view.kind) {
    case 'signIn':
      body = <SignInView flow={flow} emailRef={emailRef} passwordRef={passwordRef} />;
      break;
    case 'forgot':
      body = <ForgotView flow={flow} emailRef={emailRef} />;
      break;
    case 'forgotSent':
    case 'linkSent':
      body = <EmailSentView view={view} onBack={flow.backToSignIn} />;
      break;
    case 'reset':
      body = <ResetView flow={flow} view={view} />;
      break;
    case 'completeLink':
      body = <CompleteLinkView flow={flow} view={view} emailRef={emailRef} />;
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

      {flow.workDialog && (
        <Suspense fallback={null}>
          <WorkAccountDialog
            opened
            initialEmail={flow.workDialog.email}
            validate={validateEmail}
            onCancel={flow.closeWorkDialog}
            onSubmit={flow.onWorkDialogSubmit}
          />
        </Suspense>
      )}
    </div>
  );
}
