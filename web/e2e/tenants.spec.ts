import { expect, test, type Page } from '@playwright/test';
import { COMPANIES } from '../playwright.config';
import { ARTIFACTS, cookie, runAxe, signIn, users } from './support';

// Two companies on one deployment (issue 39): the server picks each request's company by
// its host name. The demo company is at riverbend.localhost (this project's base URL), a
// second one with fewer records at kestrel.localhost; both have a user Ada, each in its
// own identity tenant.

const projectRows = (page: Page) => page.getByRole('table', { name: /, page 1$/ }).locator('tbody tr');

/** The client configuration the server put into the page. */
function clientConfig(page: Page): Promise<{ tenantId: string }> {
  return page.evaluate(() => JSON.parse(document.getElementById('portico-config')?.textContent ?? '{}'));
}

test('two companies at two host names of one deployment: each signs in to its own and sees only its own records', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await signIn(page, users.ada.email, users.ada.fullName);
  expect((await clientConfig(page)).tenantId).toBe('portico-demo');
  await page.goto('/project/list?size=50');
  await expect(projectRows(page)).toHaveCount(COMPANIES.riverbend.projects);

  const kestrel = await browser.newContext({ baseURL: COMPANIES.kestrel.url });
  const other = await kestrel.newPage();
  await signIn(other, users.ada.email, users.ada.fullName);
  expect((await clientConfig(other)).tenantId).toBe('kestrel');
  await other.goto('/project/list?size=50');
  await expect(projectRows(other)).toHaveCount(COMPANIES.kestrel.projects);
  // Each address's navbar names its company.
  await expect(other.getByTestId('company-name')).toHaveText(COMPANIES.kestrel.name);
  await expect(page.getByTestId('company-name')).toHaveText('Riverbend Ecological Services');
  expect((await runAxe(other)).violations).toEqual([]);
  await other.screenshot({ path: `${ARTIFACTS}/tenants-kestrel-projects.png` });

  // A session of one company opens nothing at the other's address.
  const token = await cookie(page, 'token');
  // (From the page: Node does not resolve *.localhost names as Chromium does.)
  const refused = await other.evaluate(
    (bearer) => fetch('/api/v1/kinds', { headers: { Authorization: `Bearer ${bearer}`, 'X-Role-Id': '1' } }).then((r) => r.status),
    token ?? '',
  );
  expect(refused).toBe(511);
  await kestrel.close();

  // An address no company is served at names none.
  const nobody = await browser.newPage();
  const answer = await nobody.goto(COMPANIES.unknown.url);
  expect(answer?.status()).toBe(404);
  await expect(nobody.locator('body')).toHaveText('No portal is served at this address.');
  await nobody.close();
});
