import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { ARTIFACTS, mainMenu, signIn, userButton, users, watchProblems } from './support';

// NetSuite mode: the 'erp' project's server (playwright.config.ts) syncs every 2 s from a fake
// NetSuite account (cmd/netsuite-fake) holding 30 records of every kind. Nothing is seeded in
// the portal: what the lists show was pulled from the account, and edits are pushed to it.

/** Records of every kind in the fake account (-per-kind 30). */
const PER_KIND = 30;

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/** The record's write-state notice while its last change is on its way to NetSuite. */
function pendingNotice(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Saving to NetSuite' });
}

/** Any write-state notice (pending or failed): none means the record is in sync. */
function writeState(page: Page) {
  return page.getByTestId('write-state');
}

/** Opens the client list once the first pull brought every client of the account. */
async function openClients(page: Page) {
  await expect(async () => {
    await page.goto('/customer/list');
    await expect(page.getByRole('heading', { level: 1, name: 'Clients', exact: true })).toBeVisible();
    await expect(page.getByTestId('list-total')).toHaveText(`${PER_KIND} records`, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(listTable(page).locator('tbody tr')).toHaveCount(PER_KIND);
}

/** Opens the first client of the list; answers its name. */
async function openFirstClient(page: Page): Promise<string> {
  await openClients(page);
  const link = listTable(page).locator('tbody tr').first().getByRole('link').first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(/\/customer\/view\?id=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  return name;
}

/** The rendered horizontal gap in px between two words of an element's text (each the first text node holding it). */
async function gapBetweenWords(element: Locator, left: string, right: string): Promise<number> {
  return element.evaluate(
    (root, [a, b]) => {
      const rectOf = (word: string) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent!.indexOf(word);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + word.length);
          return range.getBoundingClientRect();
        }
        throw new Error(`no "${word}" in ${root.textContent}`);
      };
      return rectOf(b!).left - rectOf(a!).right;
    },
    [left, right],
  );
}

test.describe('NetSuite mode', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test("the client list shows the account's clients, and a client's view page opens", async ({ page }) => {
    const problems = await watchProblems(page);
    const name = await openFirstClient(page);
    await expect(page.getByRole('link', { name: 'Open in NetSuite' })).toHaveAttribute('href', /^https:\/\//);
    await expect(writeState(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
    expect(name.length).toBeGreaterThan(0);
    expect(await problems()).toEqual([]);
  });

  test("a client's new name is saved to NetSuite: pending first, then in sync", async ({ page }) => {
    const problems = await watchProblems(page);
    const before = await openFirstClient(page);
    const viewUrl = page.url();
    const after = `${before.slice(0, 120)} (edited ${Date.now() % 100000})`;

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(/\/customer\/edit\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${before}` })).toBeVisible();
    const nameBox = page.getByRole('textbox', { name: 'Client name' });
    await expect(nameBox).toHaveValue(before);
    await nameBox.fill(after);
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('-crud') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save changes' }).click();

    // The save answers at once with the change queued for NetSuite.
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { data: { write?: { state: string } } }).data.write?.state).toBe('pending');
    expect(page.url()).toBe(viewUrl);
    await expect(page.getByRole('heading', { level: 1, name: after, exact: true })).toBeVisible();
    await expect(pendingNotice(page)).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/erp-record-pending.png`, fullPage: true });

    // The push lands within a few seconds; the page notices by itself (no reload).
    const start = Date.now();
    await expect(pendingNotice(page)).toHaveCount(0, { timeout: 10_000 });
    test.info().annotations.push({ type: 'synced after', description: `${Date.now() - start} ms` });
    await expect(writeState(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: after, exact: true })).toBeVisible();

    // A fresh load: NetSuite's values read back, in sync, with the new name.
    await page.reload();
    await expect(userButton(page, users.ada.fullName)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: after, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open in NetSuite' })).toBeVisible();
    await expect(writeState(page)).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/erp-record.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/erp-record-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The list shows the new name too.
    await page.goto('/customer/list');
    await expect(listTable(page).getByRole('link', { name: after, exact: true })).toBeVisible();
    expect(await problems()).toEqual([]);
  });

  test('the administrator sees the sync status from the menu and starts a sync of projects', async ({ page }) => {
    const problems = await watchProblems(page);
    const status = page.waitForResponse((r: Response) => new URL(r.url()).pathname === '/api/v1/sync/status' && r.ok());
    await mainMenu(page).getByRole('button', { name: 'Admin' }).click();
    await page.getByRole('menuitem', { name: 'ERP sync', exact: true }).click();
    await expect(page).toHaveURL(/\/sync$/);
    await expect(page.getByRole('heading', { level: 1, name: 'ERP sync' })).toBeVisible();

    // Every kind was pulled within the last minute, without errors.
    const answer = (await (await status).json()) as { data: { kinds: { kind: string; label: string; lastRun: string; lastError?: string }[] } };
    expect(answer.data.kinds).toHaveLength(15);
    for (const k of answer.data.kinds) {
      expect(k.lastError, k.kind).toBeUndefined();
      expect(Date.now() - Date.parse(k.lastRun), `${k.kind} last pull age (ms)`).toBeLessThan(60_000);
    }

    const table = page.getByRole('table', { name: 'Sync status of each record kind' });
    const rows = table.getByRole('row').filter({ has: page.getByRole('rowheader') });
    await expect(rows).toHaveCount(15);
    for (const k of answer.data.kinds) {
      const row = rows.filter({ has: page.getByRole('rowheader', { name: k.label, exact: true }) });
      const cells = row.getByRole('cell');
      await expect(cells.nth(0), `${k.label} last pull`).not.toHaveText('never');
      await expect(cells.nth(2), `${k.label} lag`).toHaveText(/^\d+ s$/);
      await expect(cells.nth(3), `${k.label} status`).toHaveText('OK');
    }
    await expect(table).not.toContainText('Error');
    await expect(page.getByTestId('outbox-failed')).toHaveText('0');
    await expect(page.getByText('Nothing waiting: every change made here is in NetSuite')).toBeVisible();

    // Start a sync of one kind.
    const run = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/sync/run');
    const syncProjects = rows.filter({ has: page.getByRole('rowheader', { name: 'Projects', exact: true }) }).getByRole('button', { name: 'Sync Projects now', exact: true });
    // The kind is for screen readers; on screen the words around it keep their space ("Sync now", not "Syncnow").
    expect(await gapBetweenWords(syncProjects, 'Sync', 'now')).toBeGreaterThan(2);
    await syncProjects.click();
    const ran = await run;
    expect(ran.ok(), `POST /sync/run: ${ran.status()}`).toBe(true);
    expect(new URL(ran.url()).searchParams.get('kind')).toBe('project');
    const started = page.getByRole('status').filter({ hasText: 'Sync started' });
    await expect(started).toBeVisible();
    await expect(started).toContainText('A sync of Projects started in the background.');
    await page.screenshot({ path: `${ARTIFACTS}/erp-sync.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/erp-sync-390.png`, fullPage: true });
    expect(await problems()).toEqual([]);
  });
});
