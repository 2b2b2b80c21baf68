import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { describe, expect, it, vi } from 'vitest';
import * as signInModule from '../session/signIn';
import { renderWithProviders } from '../test/render';
import LoginPage, { validateCredentials } from './LoginPage';

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
    expect(screen.getByRole('form', { name: 'Sign in with email and password' })).toBeInTheDocument();
  });

  it('shows validation messages for an empty and an invalid email, without calling signIn', async () => {
    const signIn = vi.spyOn(signInModule, 'signIn');
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

  it('calls signIn with the credentials and shows its failure inline', async () => {
    const signIn = vi.spyOn(signInModule, 'signIn');
    const { user } = renderLogin();

    await user.type(screen.getByLabelText(/^Email/), '  ada@example.com ');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(signIn).toHaveBeenCalledWith({ method: 'password', email: 'ada@example.com', password: 'secret' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in is not available yet');
  });

  it('goes to the redirect target once signIn succeeds', async () => {
    vi.spyOn(signInModule, 'signIn').mockResolvedValue();
    const { user, router } = renderLogin('/login?redirect=%2Fproject%2Fview%3Fid%3D7');
    await user.click(screen.getByRole('button', { name: 'Sign in with work account' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/project/view?id=7');
  });
});

describe('validateCredentials', () => {
  it('checks email presence and shape and password presence', () => {
    expect(validateCredentials('', '')).toEqual({ email: 'Enter your email address', password: 'Enter your password' });
    expect(validateCredentials('a@b', 'x').email).toMatch(/valid email/);
    expect(validateCredentials(' a@b.co ', 'x')).toEqual({});
  });
});
