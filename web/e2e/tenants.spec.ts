import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { COMPANIES } from '../playwright.config';
import { netsuiteCall, type FakeAccount } from './netsuite-accounts';
import { ARTIFACTS, cookie, runAxe, signIn, users } from './support';

// Two companies on one deployment (issue 39): the server picks each request's company by
// its host name, and each company syncs from its own NetSuite account (playwright.config.ts
// starts a fake account per company and connects each with `netsuite connect -tenant`;
// nothing is seeded). The demo company is at riverbend.localhost (this project's base URL),
// its account in Los Angeles with a service area on projects; a second one with fewer
// records is at kestrel.localhost, its account in Berlin (dates DD/MM/YYYY) with a latitude
// on projects, and a Sandbox badge. Both have a user Ada, each in its own identity tenant.

const { riverbend, kestrel } = COMPANIES;

/** The project list's table, once its rows are there. */
const projectTable = (page: Page) => page.getByRole('table', { name: /, page 1$/ });
const projectRows = (page: Page) => projectTable(page).locator('tbody tr');

/** The navbar's environment badge (none in Production). */
const environmentBadge = (page: Page) => page.getByRole('banner').locator('.mantine-Badge-root');

/** The client configuration the server put into the page. */
function clientConfig(page: Page): Promise<{ tenantId: string }> {
  return page.evaluate(() => JSON.parse(document.getElementById('portico-config')?.textContent ?? '{}'));
}

/** A labelled field of a record page, in whichever group it is. */
function fieldLabel(page: Page, label: string) {
  return page.getByRole('main').locator(`xpath=.//dt[normalize-space()="${label}"]`);
}
function fieldValue(page: Page, label: string) {
  return page.getByRole('main').locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

/** Opens the project list once the sync brought every project of the company's account (and its fields). */
async function openProjects(page: Page, projects: number) {
  await expect(async () => {
    await page.goto('/project/list?size=50');
    await expect(page.getByRole('heading', { level: 1, name: 'Projects', exact: true })).toBeVisible();
    await expect(page.getByTestId('list-total')).toHaveText(`${projects} records`, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(projectRows(page)).toHaveCount(projects);
}

/** The project list's header cell of a column, by its label (a sortable one's name adds ", sortable" and the like). */
const columnHeader = (page: Page, label: string) => projectTable(page).getByRole('columnheader', { name: new RegExp(`^${label}\\s*(,|$)`) });

/** The texts of one column of the project list, by its label. */
async function columnTexts(page: Page, label: string): Promise<string[]> {
  const table = projectTable(page);
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
  const index = headers.findIndex((h) => h === label || h.startsWith(`${label}\n`) || h.startsWith(`${label},`));
  expect(index, `a "${label}" column in ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(0);
  return (await table.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts()).map((t) => t.trim());
}

/**
 * Opens the project of the list's row `index` and waits for its whole record: the first answer
 * may be the sync's copy while the server completes it from NetSuite (`completing`), its other
 * fields shown as empty until the page asks again. Answers the project's id.
 */
async function openProject(page: Page, index: number): Promise<number> {
  const link = projectRows(page).nth(index).getByRole('link').first();
  const name = (await link.textContent())!.trim();
  const complete = page.waitForResponse(async (r) => {
    const url = new URL(r.url());
    if (!url.pathname.endsWith('-record') || url.searchParams.has('tab') || !r.ok()) return false;
    return ((await r.json()) as { data: { completing?: boolean } }).data.completing !== true;
  });
  await link.click();
  await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
  await complete;
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  return Number(new URL(page.url()).searchParams.get('id'));
}

/** A project (NetSuite job) as its account holds it now. */
async function job(request: APIRequestContext, account: FakeAccount, id: number): Promise<Record<string, unknown>> {
  const answer = await netsuiteCall(request, account, 'GET', `job/${id}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

/** A quantity as the app shows it (two decimals, en-US). */
const quantity = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A date (yyyy-mm-dd, as the record API gives it) as the app shows it: "Feb 6, 2022". */
const date = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

test('two companies at two host names of one deployment, each synced from its own NetSuite account', async ({ page, browser, request }) => {
  test.setTimeout(60_000);
  await signIn(page, users.ada.email, users.ada.fullName);
  expect((await clientConfig(page)).tenantId).toBe('portico-demo');
  const kestrelContext = await browser.newContext({ baseURL: kestrel.url });
  const other = await kestrelContext.newPage();
  await signIn(other, users.ada.email, users.ada.fullName);
  expect((await clientConfig(other)).tenantId).toBe('kestrel');
  // Each address's navbar names its company.
  await expect(page.getByTestId('company-name')).toHaveText(riverbend.name);
  await expect(other.getByTestId('company-name')).toHaveText(kestrel.name);
  // Kestrel's own environment is its badge; riverbend has the deployment's, Production: none.
  await expect(environmentBadge(other)).toHaveText(kestrel.environment!);
  await expect(environmentBadge(page)).toHaveCount(0);

  await test.step('each lists exactly its own account’s projects', async () => {
    await openProjects(page, riverbend.projects);
    await openProjects(other, kestrel.projects);
    // Each list has its own account field's column, and not the other's.
    for (const [p, own, others] of [[page, riverbend, kestrel], [other, kestrel, riverbend]] as const) {
      await expect(columnHeader(p, own.accountField.label)).toHaveCount(1);
      await expect(columnHeader(p, others.accountField.label)).toHaveCount(0);
    }
    expect((await runAxe(other)).violations).toEqual([]);
  });

  await test.step('riverbend’s projects have its account’s service area, not kestrel’s latitude', async () => {
    const areas = await columnTexts(page, riverbend.accountField.label);
    const index = areas.findIndex((a) => a !== '' && a !== '—'); // ("—": none)
    expect(index, `a project with a service area in ${JSON.stringify(areas)}`).toBeGreaterThanOrEqual(0);
    const id = await openProject(page, index);
    const held = await job(request, riverbend.netsuite, id);
    expect(areas[index]).toBe(held[riverbend.accountField.name]);
    await expect(fieldValue(page, riverbend.accountField.label)).toHaveText(areas[index]!);
    await expect(fieldLabel(page, kestrel.accountField.label)).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/tenants-riverbend-project.png`, fullPage: true });
  });

  let kestrelProject = 0;
  await test.step('kestrel’s projects have its account’s latitude, not riverbend’s service area', async () => {
    const startDate = (await columnTexts(other, 'Start date'))[0];
    kestrelProject = await openProject(other, 0);
    const held = await job(request, kestrel.netsuite, kestrelProject);
    // The list's date is the sync's copy (from SuiteQL, in an account whose user reads dates
    // DD/MM/YYYY): the day NetSuite has.
    expect(startDate).toBe(date(held.startDate as string));
    await expect(fieldValue(other, 'HUC')).toHaveText(held.custentity_res_huc as string);
    const latitude = held[kestrel.accountField.name];
    expect(typeof latitude).toBe('number');
    await expect(fieldValue(other, kestrel.accountField.label)).toHaveText(quantity.format(latitude as number));
    await expect(fieldLabel(other, riverbend.accountField.label)).toHaveCount(0);
    expect((await runAxe(other)).violations).toEqual([]);
    await other.screenshot({ path: `${ARTIFACTS}/tenants-kestrel-project.png`, fullPage: true });
  });

  await test.step('a change made in kestrel’s account reaches kestrel alone', async () => {
    const title = `Changed in Berlin ${Date.now() % 1_000_000}`;
    const answer = await netsuiteCall(request, kestrel.netsuite, 'PATCH', `job/${kestrelProject}`, { companyName: title });
    expect(answer.status(), await answer.text()).toBe(204);
    // (From the list, the sync's copy: a record page also reads its record from NetSuite.)
    await expect(async () => {
      await other.goto('/project/list?size=50');
      await expect(projectTable(other).getByRole('link', { name: title, exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await page.goto('/project/list?size=50');
    await expect(projectRows(page)).toHaveCount(riverbend.projects);
    await expect(projectTable(page).getByRole('link', { name: title })).toHaveCount(0);
    await other.screenshot({ path: `${ARTIFACTS}/tenants-kestrel-projects.png` });
  });

  await test.step('a session of one company opens nothing at the other’s address', async () => {
    const token = await cookie(page, 'token');
    // (From the page: Node does not resolve *.localhost names as Chromium does.)
    const refused = await other.evaluate(
      (bearer) => fetch('/api/v1/kinds', { headers: { Authorization: `Bearer ${bearer}`, 'X-Role-Id': '1' } }).then((r) => r.status),
      token ?? '',
    );
    expect(refused).toBe(511);
  });
  await kestrelContext.close();

  await test.step('an address no company is served at names none', async () => {
    const nobody = await browser.newPage();
    const answer = await nobody.goto(COMPANIES.unknown.url);
    expect(answer?.status()).toBe(404);
    await expect(nobody.locator('body')).toHaveText('No portal is served at this address.');
    await nobody.close();
  });
});
