import { expect, test, type Browser, type Page, type Response, type TestInfo } from '@playwright/test';
import { signIn, users, watchProblems } from './support';

// Live updates (issue 18): two browsers signed in as different users. Ada (an administrator,
// who may edit clients) edits a client; Pete (a project manager, who may see clients) has
// the client list and the client's page open in two tabs. Both show who is editing and then
// the new name within 2 s, without a reload.

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/** A browser of its own (cookies, storage and event stream), with the project's options. */
async function newBrowser(browser: Browser, info: TestInfo) {
  const { baseURL, viewport } = info.project.use;
  return browser.newContext({ baseURL, viewport });
}

/** Marks the page so that a reload (which drops the mark) shows. */
async function mark(page: Page) {
  await page.evaluate(() => ((window as unknown as { __live: boolean }).__live = true));
}
async function stillMarked(page: Page) {
  return page.evaluate(() => (window as unknown as { __live?: boolean }).__live === true);
}

/** The response that opens a page's live event stream (its headers arrive at connect). */
function isEventStream(r: Response): boolean {
  return new URL(r.url()).pathname === '/api/v1/events' && r.request().method() === 'GET';
}

test('a client edited in one browser: the other sees who is editing, then the new name on its list and record page', async ({ browser }, info) => {
  info.setTimeout(90_000);
  const stamp = Date.now() % 1_000_000;
  const name = `Larkspur Fen Cooperative ${stamp}`;
  const renamed = `${name} renamed`;
  const a = await newBrowser(browser, info);
  const b = await newBrowser(browser, info);
  try {
    // Ada creates the client the test works on (no other test knows it).
    const pageA = await a.newPage();
    const problemsA = await watchProblems(pageA);
    await signIn(pageA, users.ada.email, users.ada.fullName);
    await pageA.goto('/customer/create');
    await pageA.getByRole('textbox', { name: 'Client name' }).fill(name);
    await pageA.getByRole('combobox', { name: 'Status' }).selectOption('Active');
    await pageA.getByRole('button', { name: 'Create client' }).click();
    await expect(pageA).toHaveURL(/\/customer\/view\?id=\d+$/);
    await expect(pageA.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    const view = new URL(pageA.url());
    const viewPath = view.pathname + view.search;

    // Pete: the client list, searched for the client, in one tab; its page in another.
    const list = await b.newPage();
    const problemsList = await watchProblems(list);
    await signIn(list, users.pete.email, users.pete.fullName);
    const listStream = list.waitForResponse(isEventStream);
    await list.goto('/customer/list');
    await list.getByRole('searchbox', { name: 'Search clients' }).fill(name);
    await expect(listTable(list).getByRole('link', { name, exact: true })).toHaveAttribute('href', viewPath);
    const record = await b.newPage();
    const problemsRecord = await watchProblems(record);
    const recordStream = record.waitForResponse(isEventStream);
    await record.goto(viewPath);
    await expect(record.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    // Presence is not stored: Pete's pages must be listening before Ada opens the form.
    await listStream;
    await recordStream;
    await mark(list);
    await mark(record);
    const notice = record.getByRole('status').filter({ hasText: `${users.ada.fullName} is editing` });
    await expect(notice).toHaveCount(0);

    // Ada opens the edit form: once it has said so, Pete's page names her within 2 s.
    const announced = pageA.waitForResponse(
      (r) => r.url().includes('/api/v1/events/editing') && r.request().method() === 'POST',
    );
    await pageA.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(pageA).toHaveURL(/\/customer\/edit\?id=\d+$/);
    expect((await announced).status()).toBe(204);
    await expect(notice).toBeVisible({ timeout: 2_000 });

    // Ada saves a new name: once it is stored, Pete's page and list show it within 2 s.
    await pageA.getByRole('textbox', { name: 'Client name' }).fill(renamed);
    const saved = pageA.waitForResponse((r) => r.url().includes('-crud') && r.request().method() === 'PUT');
    await pageA.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    await Promise.all([
      expect(record.getByRole('heading', { level: 1, name: renamed, exact: true })).toBeVisible({ timeout: 2_000 }),
      expect(listTable(list).getByRole('link', { name: renamed, exact: true })).toBeVisible({ timeout: 2_000 }),
    ]);
    await expect(pageA).toHaveURL(/\/customer\/view\?id=\d+$/);
    await expect(pageA.getByRole('heading', { level: 1, name: renamed, exact: true })).toBeVisible();
    // The form closed: the notice goes.
    await expect(notice).toBeHidden();
    // In place: neither of Pete's pages was reloaded.
    expect(await stillMarked(list)).toBe(true);
    expect(await stillMarked(record)).toBe(true);

    expect(await problemsA()).toEqual([]);
    expect(await problemsList()).toEqual([]);
    expect(await problemsRecord()).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
});
