import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api/errors';
import { config } from '../../lib/config';
import * as authModule from '../../lib/session/auth';
import { setIdentityForTests } from '../../lib/session/identity';
import { IdentityError } from '../../lib/session/identityErrors';
import { fakeIdentity, type FakeIdentity } from '../../test/fakeIdentity';
import { renderWithProviders } from '../../test/render';
import LoginPage, { EMAIL_FOR_SIGN_IN_KEY, validateCredentials } from './LoginPage';

function renderLogin(path = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', Component: LoginPage },
      { path: '*', Component: () => <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  renderWithProviders(<RouterProvider router={router} />);
  return { router, user };
}

let identity: FakeIdentity;

beforeEach(() => {
  identity = fakeIdentity();
  setIdentityForTests(identity);
});

afterEach(() => {
  delete config.identity.emulatorHost;
});

describe('LoginPage', () => {
  it('renders the sign-in form with accessible names', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Portico' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Portico logo' })).toBeInTheDocument();

    const email = screen.getByLabelText(/^Email/);
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('autocomplete', 'username');

    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('autocomplete', 'current-password');

    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
    expect(screen.getByRole('button', { name: 'Sign in with work account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email me a sign-in link' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Sign in with email and password' })).toBeInTheDocument();
  });

  it('shows validation messages for an empty and an invalid email, without calling signIn', async () => {
    const signIn = vi.spyOn(authModule, 'signIn');
    const { user } = renderLogin();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText(/^Email/);
    expect(email).toHaveAccessibleDescription('Enter your email address');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Enter your password');

    await user.type(email, 'not-an-email');
    expect(email).toHaveAccessibleDescription(/Enter a valid email address/);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(signIn).not.toHaveBeenCalled();
  });

  it('calls signIn with the credentials and shows the mapped identity error inline', async () => {
    const signIn = vi.spyOn(authModule, 'signIn').mockRejectedValue(new IdentityError('auth/wrong-password'));
    const { user } = renderLogin();

    await user.type(screen.getByLabelText(/^Email/), '  ada@example.com ');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(signIn).toHaveBeenCalledWith({ method: 'password', email: 'ada@example.com', password: 'secret' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is not right. Check them and try again.');
  });

  it('shows the server’s refusal as it comes (403 without a portal account, 429)', async () => {
    vi.spyOn(authModule, 'signIn').mockRejectedValue(
      new ApiError('403', 'You signed in, but you do not have a Portico account. Ask your administrator for access.', 403),
    );
    const { user } = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), 'nora@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('you do not have a Portico account');
  });

  it('goes to the redirect target once signIn succeeds', async () => {
    const signIn = vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?redirect=%2Fproject%2Fview%3Fid%3D7');
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    expect(signIn).toHaveBeenCalledWith({ method: 'workAccount' });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/project/view?id=7');
  });

  it('ignores an off-site redirect target', async () => {
    vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?redirect=%2F%2Fevil.example%2F');
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    await screen.findByText('elsewhere');
    expect(router.state.location.pathname).toBe('/');
  });

  // Issue 36: "/%09/evil.example" stayed on this page after a successful sign-in, saying
  // "Sign-in failed — External navigation is not allowed".
  it('goes home when the redirect target holds control characters, never saying sign-in failed', async () => {
    vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?redirect=%2F%09%2Fevil.example');
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    await screen.findByText('elsewhere');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText(/Sign-in failed/)).not.toBeInTheDocument();
  });

  it('does not call a successful sign-in failed when the navigation after it throws', async () => {
    vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?redirect=%2Fproject%2Flist');
    const navigate = router.navigate.bind(router);
    let calls = 0;
    vi.spyOn(router, 'navigate').mockImplementation((...args: Parameters<typeof router.navigate>) => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error('External navigation is not allowed'));
      return navigate(...args);
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    await screen.findByText('elsewhere');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText(/Sign-in failed/)).not.toBeInTheDocument();
  });

  it('in emulator mode asks for the work email in a dialog, then signs in with it', async () => {
    config.identity.emulatorHost = '127.0.0.1:9099';
    const signIn = vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in with work account' });
    const input = await screen.findByLabelText(/^Work email/);
    expect(dialog).toContainElement(input);
    // Every dialog's ✕ is named (the theme names it).
    expect(within(dialog).getByRole('button', { name: 'Close dialog' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(input).toHaveAccessibleDescription('Enter your email address');
    await user.type(input, 'sam.sso@portico.test');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(signIn).toHaveBeenCalledWith({ method: 'workAccount', workEmail: 'sam.sso@portico.test' });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  });

  it('sends a password-reset email (Forgot password?)', async () => {
    const { user } = renderLogin('/login?redirect=%2Fx');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(identity.sendPasswordReset).toHaveBeenCalledWith('ada@example.com', `${window.location.origin}/login?redirect=%2Fx`);
    expect(await screen.findByText(/a link to choose a new password is on its way/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows a failed reset email with the mapped message', async () => {
    identity.sendPasswordReset.mockRejectedValue(new IdentityError('auth/user-not-found'));
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText(/^Email/), 'who@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no account with that email address.');
  });

  it('emails a sign-in link and remembers the address for when it is opened', async () => {
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Enter your email address');
    expect(identity.sendSignInLink).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/^Email/), 'pete@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(identity.sendSignInLink).toHaveBeenCalledWith('pete@example.com', `${window.location.origin}/login`);
    expect(await screen.findByText(/We sent a sign-in link to pete@example.com/)).toBeInTheDocument();
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBe('pete@example.com');
  });

  it('completes a sign-in link opened on this device', async () => {
    localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, 'pete@example.com');
    const signIn = vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { router } = renderLogin('/login?redirect=%2Fy&mode=signIn&oobCode=abc&apiKey=k');
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledOnce();
    expect(signIn).toHaveBeenCalledWith({
      method: 'emailLink',
      email: 'pete@example.com',
      link: `${window.location.origin}/login?redirect=%2Fy&mode=signIn&oobCode=abc&apiKey=k`,
    });
    expect(router.state.location.pathname).toBe('/y');
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBeNull();
  });

  it('asks for the email when a sign-in link is opened on another device', async () => {
    const signIn = vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user } = renderLogin('/login?mode=signIn&oobCode=abc&apiKey=k');
    expect(await screen.findByRole('heading', { name: 'Confirm your email' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'pete@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledWith(expect.objectContaining({ method: 'emailLink', email: 'pete@example.com' }));
  });

  it('shows why a spent sign-in link failed and drops its parameters', async () => {
    localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, 'pete@example.com');
    vi.spyOn(authModule, 'signIn').mockRejectedValue(new IdentityError('auth/invalid-action-code'));
    const { router } = renderLogin('/login?redirect=%2Fy&mode=signIn&oobCode=abc');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid any more');
    await waitFor(() => expect(router.state.location.search).toBe('?redirect=%2Fy'));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('resets the password from the emailed link, then signs in with the new one', async () => {
    const signIn = vi.spyOn(authModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?mode=resetPassword&oobCode=code1&apiKey=k');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(identity.verifyPasswordResetCode).toHaveBeenCalledWith('code1');
    expect(screen.getByText('For ada@example.com')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^New password/), 'abc');
    await user.click(screen.getByRole('button', { name: 'Save password and sign in' }));
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription('Use at least 6 characters');
    expect(identity.confirmPasswordReset).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/^New password/), 'defgh');
    await user.click(screen.getByRole('button', { name: 'Save password and sign in' }));
    expect(identity.confirmPasswordReset).toHaveBeenCalledWith('code1', 'abcdefgh');
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledWith({ method: 'password', email: 'ada@example.com', password: 'abcdefgh' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('explains an expired reset link', async () => {
    identity.verifyPasswordResetCode.mockRejectedValue(new IdentityError('auth/expired-action-code'));
    const { router } = renderLogin('/login?mode=resetPassword&oobCode=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired. Ask for a new one.');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('validateCredentials', () => {
  it('checks email presence and shape and password presence', () => {
    expect(validateCredentials('', '')).toEqual({ email: 'Enter your email address', password: 'Enter your password' });
    expect(validateCredentials('a@b', 'x').email).toMatch(/valid email/);
    expect(validateCredentials(' a@b.co ', 'x')).toEqual({});
  });
});
