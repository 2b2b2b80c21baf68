import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ARTIFACTS, mainMenu, menuFocused, openUserMenu, signIn, signInForm, submitPassword, userButton, users, watchProblems } from './support';

// The app shell (issue 4): guard, 404, layouts, alert, loading overlay, category menu,
// skip link, screenshots and first-load timings, against the real binary.

const banner = (page: Page) => page.getByRole('banner');
const alertArea = (page: Page) => page.getByTestId('alert-area');
const overlay = (page: Page) => page.getByRole('status', { name: 'Loading', exact: true });

/** Waits until the dashboard shows its first figure (or a figure's failure). */
async function dashboardData(page: Page) {
  await expect(page.locator('[data-testid^="kpi-"] [data-state]').first()).toBeVisible();
}

test('the guard sends a deep link through /login?redirect= and back; /login has no navbar', async ({ page }) => {
  await page.goto('/project/view/billing?id=42');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fproject%2Fview%2Fbilling%3Fid%3D42$/);
  await expect(signInForm(page).email).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await expect(alertArea(page)).toBeAttached();

  await submitPassword(page, users.ada.email);
  await expect(page).toHaveURL(/\/project\/view\/billing\?id=42$/);
  await expect(userButton(page, users.ada.fullName)).toBeVisible();

  // Signed in, /login still shows no navbar.
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});

test('unknown paths redirect to /404, which has no navbar and a way home', async ({ page }) => {
  await page.goto('/no/such/page?x=1');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);

  await signIn(page, users.pete.email, users.pete.fullName);
  for (const path of ['/project/list/extra', '/nosuchkind/view/notes?id=1', '/project']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/404$/);
    await expect(banner(page), path).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(banner(page)).toBeVisible();
});

test('the alert shows, closes with its button, and a navigation hides it', async ({ page }) => {
  await signIn(page, users.lou.email, users.lou.fullName);
  // Lou's role has no layout: the app says so in its alert.
  const alert = alertArea(page).getByRole('alert');
  await expect(alert).toContainText('Missing layout configuration.');
  await expect(alert).toHaveAttribute('data-alert-class', 'alert-warning');
  await alert.getByRole('button', { name: 'Close alert' }).click();
  await expect(alertArea(page).getByRole('alert')).toHaveCount(0);

  // Lou has no menu and is no employee with projects: Lou's dashboard links only to the
  // records Lou opened (Recent records). The role may see projects, so Lou opens one.
  await page.goto('/project/list');
  const first = page.getByRole('table', { name: /, page \d+$/ }).locator('tbody tr').first().getByRole('link').first();
  await expect(first).toHaveAttribute('href', /^\/project\/view\?id=\d+$/);
  const project = { name: (await first.textContent())!.trim(), href: (await first.getAttribute('href'))! };
  const recorded = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/me/recent');
  await page.goto(project.href);
  await expect(page.getByRole('heading', { level: 1, name: project.name, exact: true })).toBeVisible();
  expect((await recorded).status()).toBe(204);

  // Raised again on a reload of the dashboard; then guard step 1 hides it on the next navigation.
  await page.goto('/');
  await page.reload();
  await expect(alertArea(page).getByRole('alert')).toBeVisible();
  await page.getByRole('region', { name: 'Recent records' }).getByRole('link', { name: project.name, exact: true }).click();
  await expect(page).toHaveURL(project.href);
  await expect(page.getByRole('heading', { level: 1, name: project.name, exact: true })).toBeVisible();
  await expect(alertArea(page).getByRole('alert')).toHaveCount(0);
});

test('a failed role switch shows a danger alert, styled as one', async ({ page }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  await page.route('**/api/v1/auth/role', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({ title: 'Service Unavailable', status: 503, detail: 'Try again in a minute.' }),
    }),
  );
  const menu = await openUserMenu(page, users.ada.fullName);
  await menu.getByRole('menuitemradio', { name: 'Accountant' }).click();
  const alert = alertArea(page).getByRole('alert');
  await expect(alert).toContainText('503');
  await expect(alert).toContainText('Try again in a minute.');
  await expect(alert).toHaveAttribute('data-alert-class', 'alert-danger');
  // Visibly a danger alert: its accent edge is red.
  const edge = await alert.evaluate((el) => getComputedStyle(el).borderLeftColor);
  const [r, g, b] = edge.match(/\d+/g)!.map(Number);
  expect(r, `accent ${edge}`).toBeGreaterThan(150);
  expect(g! + b!, `accent ${edge}`).toBeLessThan(r! * 1.2);
  await expect(overlay(page)).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/shell-alert-danger.png` });
  await alert.getByRole('button', { name: 'Close alert' }).click();
  await expect(alertArea(page).getByRole('alert')).toHaveCount(0);
  await expect(userButton(page, users.ada.fullName)).toContainText('Administrator');
});

test('the loading overlay shows while a role switch runs, then the user lands on /', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signIn(page, users.ada.email, users.ada.fullName);
  await mainMenu(page).getByRole('button', { name: 'Projects' }).click();
  await page.getByRole('menuitem', { name: 'Budgets' }).click();
  await expect(page).toHaveURL(/\/budget\/list$/);

  // Hold the switch for a moment, so the overlay can be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/auth/role', async (route) => {
    await held;
    await route.continue();
  });
  const menu = await openUserMenu(page, users.ada.fullName);
  await menu.getByRole('menuitemradio', { name: 'Accountant' }).click();
  await expect(overlay(page)).toBeVisible();
  // The role switch shows the rocket (not the simple spinner); reduced motion stills it.
  const rocket = overlay(page).locator('[data-overlay="rocket"]');
  await expect(rocket).toBeVisible();
  expect(await rocket.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
  await page.screenshot({ path: `${ARTIFACTS}/shell-overlay.png` });
  release();

  await expect(page).toHaveURL(/\/$/);
  await expect(overlay(page)).toHaveCount(0);
  await expect(userButton(page, users.ada.fullName)).toContainText('Accountant');
  await expect(mainMenu(page).getByRole('button', { name: 'Payables' })).toBeVisible();
});

test('the category menu navigates by mouse and by keyboard', async ({ page }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  const menu = mainMenu(page);

  // Mouse.
  await menu.getByRole('button', { name: 'Finance' }).click();
  await page.getByRole('menuitem', { name: 'Invoices' }).click();
  await expect(page).toHaveURL(/\/invoice\/list$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  await expect(page).toHaveTitle(/^Invoices · /);

  // Keyboard: Tab to the category, Enter opens it, arrows move, Enter follows.
  await page.getByRole('link', { name: /home$/ }).focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await menu.getByRole('button', { name: 'Resources' }).evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'Tab reaches the Resources category').toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Vendors' })).toBeVisible();
  await menuFocused(page);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Vendors' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Vendor questionnaires' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vendorquestionnaire\/list$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Vendor questionnaires' })).toBeVisible();

  // The narrow layout: everything behind one "Menu" button, keyboard-operable too.
  await page.setViewportSize({ width: 390, height: 844 });
  const compact = menu.getByRole('button', { name: 'Menu' });
  await compact.focus();
  await page.keyboard.press('Enter');
  const billing = page.getByRole('menuitem', { name: 'Billing summaries' });
  await expect(billing).toBeVisible();
  await billing.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/billing-summary\/list$/);
});

test('keyboard: a skip link first, visible focus, and a search box named "Search records"', async ({ page }) => {
  await signIn(page, users.pete.email, users.pete.fullName);
  // A fresh page: focus starts at the top.
  await page.reload();
  await expect(userButton(page, users.pete.fullName)).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  const search = page.getByRole('search').getByRole('combobox', { name: 'Search records' });
  await search.focus();
  await page.keyboard.type('willow');
  await expect(search).toHaveValue('willow');
  await expect(page).toHaveURL(/\/$/);

  // Focus is visible on plain links and buttons.
  await page.getByRole('link', { name: /home$/ }).focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');
});

test('no console errors, CSP violations or horizontal scrolling on the dashboard and a list, light and dark', async ({ page }) => {
  const problems = await watchProblems(page);
  await signIn(page, users.ada.email, users.ada.fullName);
  await dashboardData(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    for (const width of [390, 768, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `no horizontal scrolling at ${width}px (${scheme})`).toBeLessThanOrEqual(0);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${ARTIFACTS}/shell-dashboard-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await problems()).toEqual([]);
});

test('screenshots at 1280 and 390 px: login, dashboard, a list page', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
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
    await page.screenshot({ path: `${ARTIFACTS}/shell-login${suffix}.png`, fullPage: true });

    await submitPassword(page, users.ada.email);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await dashboardData(page);
    // Ada, as Administrator, is no employee with projects of her own: her dashboard shows what
    // is owed, with its aging, and her favourites and recent records.
    await expect(page.getByTestId('aging-invoice').getByTestId('aging-bucket')).toHaveCount(5);
    await expect(page.getByTestId('shortlist-recent').locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(userButton(page, users.ada.fullName)).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/shell-dashboard${suffix}.png`, fullPage: true });

    await page.goto('/project/list');
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('table').first()).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/shell-list${suffix}.png`, fullPage: true });
  }
});

test('first-load timings (Performance API): login interactive, dashboard first data', async ({ page }) => {
  // Records, in the page's own clock (0 = navigation start), when a selector first matches.
  await page.addInitScript(() => {
    const marks: Record<string, number> = {};
    (window as unknown as { __marks: Record<string, number> }).__marks = marks;
    const watch: Array<[string, string]> = [
      ['loginReady', 'form button[type="submit"]:not([disabled])'],
      ['dashboardData', '[data-testid^="kpi-"] [data-state]'],
    ];
    const check = () => {
      for (const [name, selector] of watch) if (!(name in marks) && document.querySelector(selector)) marks[name] = performance.now();
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const marks = () => page.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks);
  const navigation = () =>
    page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
    });

  // Cold start of the sign-in page.
  await page.goto('/login');
  await expect(signInForm(page).submit).toBeEnabled();
  await expect.poll(async () => (await marks()).loginReady).toBeGreaterThan(0);
  const login = { ...(await navigation()), interactive: (await marks()).loginReady! };

  // From pressing "Sign in" to the dashboard's first figure.
  const form = signInForm(page);
  await form.email.fill(users.ada.email);
  await form.password.fill('portico-demo');
  const clicked = await page.evaluate(() => performance.now());
  await form.submit.click();
  await dashboardData(page);
  await expect.poll(async () => (await marks()).dashboardData).toBeGreaterThan(0);
  const afterSignIn = (await marks()).dashboardData! - clicked;

  // A fresh load of / with the session in place.
  await page.reload();
  await dashboardData(page);
  await expect.poll(async () => (await marks()).dashboardData).toBeGreaterThan(0);
  const dashboard = { ...(await navigation()), firstData: (await marks()).dashboardData! };

  const figures = {
    loginInteractiveMs: Math.round(login.interactive),
    loginDomContentLoadedMs: Math.round(login.domContentLoaded),
    signInToDashboardDataMs: Math.round(afterSignIn),
    dashboardReloadFirstDataMs: Math.round(dashboard.firstData),
    dashboardReloadDomContentLoadedMs: Math.round(dashboard.domContentLoaded),
  };
  console.log(
    [
      'First-load timings (headless Chromium, loopback; a benchmark, not pass/fail):',
      `  login page interactive           ${figures.loginInteractiveMs} ms after navigation (DOMContentLoaded ${figures.loginDomContentLoadedMs} ms)`,
      `  sign-in click → dashboard data    ${figures.signInToDashboardDataMs} ms`,
      `  reload of / → first data          ${figures.dashboardReloadFirstDataMs} ms after navigation (DOMContentLoaded ${figures.dashboardReloadDomContentLoadedMs} ms)`,
    ].join('\n'),
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(`${ARTIFACTS}/first-load-timings.json`, JSON.stringify(figures, null, 2));
  await expect(userButton(page, users.ada.fullName)).toBeVisible();
});

test('offline: the page says the connection is lost and what it means, then that it is back', async ({ page, context }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  await dashboardData(page);
  const notice = page.getByRole('status').filter({ hasText: 'You are offline.' });
  await expect(notice).toHaveCount(0);
  await context.setOffline(true);
  await expect(notice).toHaveText('You are offline. What you see may be out of date; changes you save are kept on this device and sent when the connection is back.');
  await page.screenshot({ path: `${ARTIFACTS}/offline-notice.png` });
  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'Back online.' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
