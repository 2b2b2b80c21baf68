import { expect, test, type Page } from '@playwright/test';
import {
  ARTIFACTS,
  cookie,
  latestOobCode,
  mainMenu,
  menuFocused,
  openUserMenu,
  recordStatus,
  signIn,
  signInForm,
  submitPassword,
  userButton,
  users,
  watchProblems,
} from './support';

// Sign-in, sessions, roles and menus (issue 3), against the real binary and the Auth
// Emulator. Each test uses its own browser context, so cookies and storage start empty.

/** The identity SDK's persisted users (local storage keys). */
function identityUsers(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('firebase:authUser:')));
}

test('email + password sign-in lands on the dashboard with the role menu, without console errors or CSP violations', async ({ page }) => {
  const problems = await watchProblems(page);
  await signIn(page, users.ada.email, users.ada.fullName);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Welcome, Ada.')).toBeVisible();
  await expect(page.getByText('You are working as Administrator.')).toBeVisible();

  // Saved client state (SPEC §3/§9).
  const cookies = await page.context().cookies();
  const byName = new Map(cookies.map((c) => [c.name, c]));
  const day = 24 * 3600;
  const now = Date.now() / 1000;
  for (const name of ['token', 'refreshToken', 'loginType', 'lastRole']) {
    expect(byName.get(name), `${name} cookie`).toBeTruthy();
    expect(byName.get(name)!.sameSite).toBe('Lax');
  }
  expect(byName.get('token')!.expires - now).toBeGreaterThan(day - 60);
  expect(byName.get('token')!.expires - now).toBeLessThan(day + 60);
  for (const name of ['refreshToken', 'loginType', 'lastRole']) {
    expect(byName.get(name)!.expires - now).toBeGreaterThan(365 * day - 60);
  }
  expect(await cookie(page, 'lastRole')).toBe('1001');
  expect(await cookie(page, 'loginType')).toBe('admin');
  const stored = await page.evaluate(() => ({
    user: JSON.parse(localStorage.getItem('user') ?? 'null') as { fullName: string } | null,
    currentRole: JSON.parse(localStorage.getItem('currentRole') ?? 'null') as { id: number } | null,
  }));
  expect(stored.user?.fullName).toBe('Ada Admin');
  expect(stored.currentRole?.id).toBe(1001);

  // The administrator's menu, keyboard-usable: open with Enter, move with arrows, Escape.
  const menu = mainMenu(page);
  for (const category of ['Projects', 'Clients & sales', 'Finance', 'Resources', 'Admin']) {
    await expect(menu.getByRole('button', { name: category })).toBeVisible();
  }
  await menu.getByRole('button', { name: 'Finance' }).focus();
  await page.keyboard.press('Enter');
  const dropdown = page.getByRole('menu');
  await expect(dropdown.getByRole('menuitem', { name: 'Vendor bills' })).toBeVisible();
  await menuFocused(page);
  await page.keyboard.press('ArrowDown');
  await expect(dropdown.getByRole('menuitem', { name: 'Invoices' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(dropdown.getByRole('menuitem', { name: 'Vendor bills' })).toBeFocused();
  await expect(dropdown.getByRole('menuitem', { name: 'Vendor bills' })).toHaveAttribute('href', '/vendorbill/list');
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();
  await expect(menu.getByRole('button', { name: 'Finance' })).toBeFocused();

  // Selecting an item navigates to its href (the page itself comes with the records issues).
  await menu.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('menuitem', { name: 'Feedback', exact: true }).click();
  await expect(page).toHaveURL(/\/(feedback|404)$/);

  expect(await problems()).toEqual([]);
});

test('a wrong password shows the mapped message and keeps the user on the form', async ({ page }) => {
  await page.goto('/login');
  await submitPassword(page, users.ada.email, 'not-the-password');
  const alert = page.getByTestId('login-error');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('The email or password is not right. Check them and try again.');
  await expect(page).toHaveURL(/\/login$/);
  expect(await cookie(page, 'token')).toBeUndefined();
  await page.screenshot({ path: `${ARTIFACTS}/login-wrong-password.png`, fullPage: true });
});

test('work-account (SSO) sign-in through the simulated Microsoft credential', async ({ page }) => {
  await page.goto('/login');
  await signInForm(page).workAccount.click();
  const dialog = page.getByRole('dialog', { name: 'Sign in with work account' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Work email/).fill(users.sam.email);
  await page.screenshot({ path: `${ARTIFACTS}/login-work-account.png` });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.sam.fullName)).toBeVisible();
  await expect(page.getByText('You are working as Project Manager.')).toBeVisible();
  await expect(mainMenu(page).getByRole('button', { name: 'My work' })).toBeVisible();
});

test('a deep link goes through sign-in and back to the deep link', async ({ page }) => {
  await page.goto('/?tab=files&id=42');
  await expect(page).toHaveURL(/\/login\?redirect=%2F%3Ftab%3Dfiles%26id%3D42$/);
  await submitPassword(page, users.ada.email);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/?tab=files&id=42');
});

test('switching role changes the menu; the last role is remembered at the next sign-in', async ({ page }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  const menu = mainMenu(page);
  await expect(menu.getByRole('button', { name: 'Admin' })).toBeVisible();

  const userMenu = await openUserMenu(page, users.ada.fullName);
  const roles = userMenu.getByRole('menuitemradio');
  await expect(roles).toHaveText(['Administrator', 'Project Manager', 'Accountant']);
  await expect(userMenu.getByRole('menuitemradio', { name: 'Administrator' })).toHaveAttribute('aria-checked', 'true');
  await expect(userMenu.getByRole('menuitemradio', { name: 'Accountant' })).toHaveAttribute('aria-checked', 'false');

  const switched = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/role') && r.request().method() === 'POST');
  await userMenu.getByRole('menuitemradio', { name: 'Accountant' }).click();
  expect((await switched).status()).toBe(200);

  // Already on /: the page reloaded fully, with the accountant's menu.
  await expect(page).toHaveURL(/\/$/);
  await expect(userButton(page, users.ada.fullName)).toContainText('Accountant');
  await expect(page.getByText('You are working as Accountant.')).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Payables' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Receivables' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Admin' })).toHaveCount(0);
  await expect(menu.getByRole('button', { name: 'Projects' })).toHaveCount(0);
  await menu.getByRole('button', { name: 'Payables' }).click();
  await expect(page.getByRole('menuitem', { name: 'Vendor bills' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await cookie(page, 'lastRole')).toBe('1003');

  const again = await openUserMenu(page, users.ada.fullName);
  await expect(again.getByRole('menuitemradio', { name: 'Accountant' })).toHaveAttribute('aria-checked', 'true');
  await again.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // SPEC §4 login step 3: the remembered last role replaces the default one.
  await submitPassword(page, users.ada.email);
  await expect(userButton(page, users.ada.fullName)).toContainText('Accountant');
  await expect(mainMenu(page).getByRole('button', { name: 'Payables' })).toBeVisible();
});

test('a reload keeps the session, its role and its menu', async ({ page }) => {
  await signIn(page, users.pete.email, users.pete.fullName);
  const token = await cookie(page, 'token');
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.pete.fullName)).toContainText('Project Manager');
  await expect(mainMenu(page).getByRole('button', { name: 'My work' })).toBeVisible();
  expect(await cookie(page, 'token')).toBe(token);
});

test('without the portal cookies, the identity SDK’s persisted user signs in again silently (guard step 3)', async ({ page }) => {
  await signIn(page, users.pete.email, users.pete.fullName);
  expect(await identityUsers(page)).toHaveLength(1);

  // The token and refresh-token cookies are gone (cleared, or expired).
  await page.context().clearCookies();
  const login = page.waitForResponse((r) => r.url().includes('/api/v1/auth/login?'));
  await page.goto('/?silent=1');
  expect((await login).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.pete.fullName)).toBeVisible();
  expect(new URL(page.url()).search).toBe('?silent=1');
  expect(await cookie(page, 'token')).toBeTruthy();
});

test('logout signs out on the server and returns to /login', async ({ page, request }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  const token = await cookie(page, 'token');
  const menu = await openUserMenu(page, users.ada.fullName);
  const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'));
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  expect((await loggedOut).status()).toBe(204);
  await expect(page).toHaveURL(/\/login$/);
  await expect(signInForm(page).email).toBeVisible();

  expect(await cookie(page, 'token')).toBeUndefined();
  expect(await cookie(page, 'refreshToken')).toBeUndefined();
  expect(await cookie(page, 'lastRole')).toBe('1001');
  expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('currentRole')])).toEqual([null, null]);
  expect(await identityUsers(page)).toEqual([]);

  // The old token is refused now, and / asks for a sign-in again.
  const me = await request.get('/api/v1/auth/me', { headers: { Authorization: `Bearer ${token}`, 'X-Role-Id': '1001' } });
  expect(me.status()).toBe(511);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
});

test('an ended session (511) returns to /login with a redirect back', async ({ page, request }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  const token = await cookie(page, 'token');

  // End the session behind the app's back, as an administrator or a reuse detection would,
  // while the app is not open (an open one may hear of it first, through its event stream):
  // the next visit finds out from the server's 511.
  await page.goto('about:blank');
  const revoked = await request.post('/api/v1/auth/logout', { headers: { Authorization: `Bearer ${token}` }, data: {} });
  expect(revoked.status()).toBe(204);

  const seen511 = recordStatus(page, 511);
  await page.goto('/?after=expiry');
  await expect(page).toHaveURL(/\/login\?redirect=%2F%3Fafter%3Dexpiry$/);
  await expect(signInForm(page).email).toBeVisible();
  expect(seen511.length).toBeGreaterThan(0);
  expect(await cookie(page, 'token')).toBeUndefined();
  // Signed out of the identity service too: no silent sign-in undoes the server's decision.
  await expect.poll(() => identityUsers(page)).toEqual([]);

  // Signing in again goes back to where the user was.
  await submitPassword(page, users.ada.email);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(new URL(page.url()).search).toBe('?after=expiry');
});

test('a role without a layout shows "Missing layout configuration." and no menu', async ({ page }) => {
  await signIn(page, users.lou.email, users.lou.fullName);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Missing layout configuration.');
  await expect(mainMenu(page)).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-missing-layout.png` });
  // And again after a reload (session restore re-applies the role).
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('Missing layout configuration.');
});

test('a person without portal roles gets a clear refusal and no session', async ({ page }) => {
  await page.goto('/login');
  await submitPassword(page, users.nora.email);
  const alert = page.getByTestId('login-error');
  await expect(alert).toContainText('Your Portico account has no roles yet. Ask your administrator to give you one.');
  await expect(page).toHaveURL(/\/login$/);
  expect(await cookie(page, 'token')).toBeUndefined();
  // The identity user was signed out again: a visit to / does not sign in silently.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
  await expect(signInForm(page).email).toBeVisible();
});

test('passwordless sign-in with the emailed link', async ({ page, request }) => {
  await page.goto('/login?redirect=%2F%3Fvia%3Dlink');
  await signInForm(page).email.fill(users.pete.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText(`We sent a sign-in link to ${users.pete.email}`)).toBeVisible();

  // Open the link as the email would: the emulator's action URL sends the browser back to
  // the portal with the code.
  const { oobLink } = await latestOobCode(request, users.pete.email, 'EMAIL_SIGNIN');
  await page.goto(oobLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.pete.fullName)).toBeVisible();
  expect(new URL(page.url()).search).toBe('?via=link');
});

test('screenshots: dashboard with the menu open, user menu open (1280 and 390 px)', async ({ page }) => {
  // No menu transitions: the screenshots show them fully open.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const [width, height, suffix] of [
    [1280, 800, ''],
    [390, 844, '-mobile'],
  ] as const) {
    await page.context().clearCookies();
    await page.setViewportSize({ width, height });
    await page.goto('/login');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect(signInForm(page).email).toBeVisible();
    // (login.png / login-mobile.png come from app.spec.ts)

    await submitPassword(page, users.ada.email);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `no horizontal scrolling at ${width}px`).toBeLessThanOrEqual(0);

    const menu = mainMenu(page);
    if (width >= 1200) {
      await menu.getByRole('button', { name: 'Finance' }).click();
    } else {
      await menu.getByRole('button', { name: 'Menu' }).click();
    }
    await expect(page.getByRole('menuitem', { name: 'Vendor bills' })).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-menu${suffix}.png` });
    await page.keyboard.press('Escape');

    await openUserMenu(page, users.ada.fullName);
    await page.screenshot({ path: `${ARTIFACTS}/user-menu${suffix}.png` });
    await page.keyboard.press('Escape');

    // Visible keyboard focus on the user menu button.
    await userButton(page, users.ada.fullName).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(outline).not.toBe('none');
  }
});
