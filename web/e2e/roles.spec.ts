import { expect, test, type Page } from '@playwright/test';
import { mainMenu, openUserMenu, signIn, userButton, users } from './support';

// Pages a role may not see (issue 35): a role switch lands on / whatever page it starts
// from (SPEC §2, §4), and a kind's page the role may not see says so inside the layout,
// with the navbar, instead of the not-found page.

const notFound = (page: Page) => page.getByRole('heading', { name: 'Page not found' });

test('a role switch on a page the new role may not see lands on /, with the navbar', async ({ page }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  await page.goto('/vendor/list');
  await expect(page.getByRole('heading', { level: 1, name: 'Vendors' })).toBeVisible();
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  // A slow dashboard: the vendor page sees the new role before / is reached.
  await page.route('**/api/v1/dashboard*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });

  const menu = await openUserMenu(page, users.ada.fullName);
  await menu.getByRole('menuitemradio', { name: 'Project Manager' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.ada.fullName)).toContainText('Project Manager');
  await expect(mainMenu(page)).toBeVisible();
  await expect(notFound(page)).toHaveCount(0);
  expect(visited).not.toContain('/404');
});

test('a kind’s page the role may not see answers "Not available to your role" inside the layout', async ({ page }) => {
  await signIn(page, users.pete.email, users.pete.fullName);
  await page.goto('/vendor/list');
  const refusal = page.getByTestId('forbidden');
  await expect(refusal).toContainText('Not available to your role');
  await expect(refusal).toContainText('Working as Project Manager, you may not see vendors.');
  await expect(page.getByRole('heading', { level: 1, name: 'Vendors' })).toBeVisible();
  await expect(page).toHaveURL(/\/vendor\/list$/);
  await expect(page).toHaveTitle(/^Vendors · /);
  await expect(mainMenu(page)).toBeVisible();
  await expect(userButton(page, users.pete.fullName)).toContainText('Project Manager');
  await expect(notFound(page)).toHaveCount(0);

  // Back to the dashboard from there; a path no kind has is still the not-found page.
  await refusal.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto('/nokind/list');
  await expect(page).toHaveURL(/\/404$/);
  await expect(notFound(page)).toBeVisible();
});
