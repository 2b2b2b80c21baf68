import { expect, test } from '@playwright/test';
import {
  PASSWORD,
  latestOobCode,
  openUserMenu,
  setPasswordViaEmulator,
  signInForm,
  submitPassword,
  userButton,
  users,
} from './support';

// Password reset (issue 3). It changes Pete's password in the Auth Emulator, which every
// server of the run shares, so it runs in a project of its own after all the others
// (playwright.config.ts): a test signing Pete in at the same moment on the other worker
// was refused with the changed password.

test('password reset through the emailed out-of-band code, then sign-in with the new password', async ({ page, request }) => {
  const newPassword = `changed-${Date.now()}`;
  try {
    await page.goto('/login');
    await signInForm(page).email.fill(users.pete.email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Check your email')).toBeVisible();

    // The link of the email, opened on the portal's own action page (/login).
    const { oobLink } = await latestOobCode(request, users.pete.email, 'PASSWORD_RESET');
    await page.goto(`/login${new URL(oobLink).search}`);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expect(page.getByText(`For ${users.pete.email}`)).toBeVisible();
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByRole('button', { name: 'Save password and sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(userButton(page, users.pete.fullName)).toBeVisible();

    // The old password no longer works; the new one does.
    await (await openUserMenu(page, users.pete.fullName)).getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await submitPassword(page, users.pete.email, PASSWORD);
    await expect(page.getByTestId('login-error')).toContainText('The email or password is not right.');
    await submitPassword(page, users.pete.email, newPassword);
    await expect(userButton(page, users.pete.fullName)).toBeVisible();
  } finally {
    await setPasswordViaEmulator(request, users.pete.email, PASSWORD);
  }
});
