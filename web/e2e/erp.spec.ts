import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page, type Response } from '@playwright/test';
import { NETSUITE } from '../playwright.config';
import { netsuiteCall } from './netsuite-accounts';
import { ARTIFACTS, mainMenu, runAxe, signIn, userButton, users, watchProblems } from './support';

// NetSuite mode: the 'erp' project's server (playwright.config.ts) syncs every 2 s from a fake
// NetSuite account (cmd/netsuite-fake) holding 30 records of every kind. Nothing is seeded in
// the portal: what the lists show was pulled from the account, and edits are pushed to it.
// The account lacks the billing summary record type, and the portal's mapping
// (e2e/netsuite-mapping.yaml) adds two of the account's own job fields to projects.

/** Records of every kind in the fake account (-per-kind 30). */
const PER_KIND = 30;

/** The kind the fake account does not have (-without customrecord_res_billing_summary). */
const NOT_IN_ACCOUNT = { kind: 'billing_summary', label: 'Billing summaries', recordType: 'customrecord_res_billing_summary' };

/** The account fields the mapping adds to projects: label → NetSuite field id. */
const ACCOUNT_FIELDS = { 'Service area': 'custentity_res_service_area', Acres: 'custentity_res_acres' } as const;

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

/** Opens the project list once the first pull brought every project of the account. */
async function openProjects(page: Page) {
  await expect(async () => {
    await page.goto('/project/list');
    await expect(page.getByRole('heading', { level: 1, name: 'Projects', exact: true })).toBeVisible();
    await expect(page.getByTestId('list-total')).toHaveText(`${PER_KIND} records`, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(listTable(page).locator('tbody tr')).toHaveCount(PER_KIND);
}

/** A header named `label`: a sortable header's name adds ", sortable" and the like. */
const headerName = (label: string) => new RegExp(`^${label}\\s*(,|$)`);

/** The list's header cell of a column, by its label. */
function columnHeader(page: Page, label: string) {
  return listTable(page).getByRole('columnheader', { name: headerName(label) });
}

/** The texts of one column of the list's table, by its label, once no newer answer is on its way. */
async function columnTexts(page: Page, label: string): Promise<string[]> {
  const table = listTable(page);
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  const headers = await table.locator('thead th').allInnerTexts();
  const index = headers.findIndex((h) => headerName(label).test(h.trim()));
  expect(index, `a "${label}" column in ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(0);
  return (await table.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts()).map((t) => t.trim());
}

/** A quantity as the list shows it ("1,234.5") as a number. */
const quantity = (text: string) => Number(text.replace(/,/g, ''));

/** The value of a labelled field in a record page's group ("Details", "Amounts"). */
function fieldValue(page: Page, group: string, label: string) {
  return page.getByRole('region', { name: group, exact: true }).locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

/** Calls the fake account's REST record API, signed as NetSuite wants it (netsuiteCall). */
function netsuite(request: APIRequestContext, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) {
  return netsuiteCall(request, NETSUITE, method, path, body);
}

/** Reads a record straight from the fake account: what NetSuite holds now. */
async function netsuiteRecord(request: APIRequestContext, recordType: string, id: number): Promise<Record<string, unknown>> {
  const answer = await netsuite(request, 'GET', `${recordType}/${id}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
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

test('the mapping of the end-to-end tests is the shipped one plus the account fields of projects', async () => {
  const dir = test.info().project.testDir;
  const shipped = await readFile(path.join(dir, '../../internal/erp/netsuite/mapping.yaml'), 'utf8');
  const ours = await readFile(path.join(dir, 'netsuite-mapping.yaml'), 'utf8');
  const additions = /\n {4}# The account's own project fields[^\n]*\n(?: {4}#[^\n]*\n)* {4}accountFields:\n(?: {6}- \{[^\n]*\}\n)+/;
  expect(ours).toMatch(additions);
  // Without its header and the additions, it is the shipped file: a change there is made here too.
  expect(ours.slice(ours.indexOf(shipped.slice(0, 40))).replace(additions, '\n')).toBe(shipped);
});

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

  test("a printed invoice's letterhead is the account's company: its root subsidiary's legal name and main address", async ({ page }) => {
    // This server was never seeded: the profile can only have come from NetSuite's subsidiary record.
    await expect(async () => {
      await page.goto('/invoice/list');
      await expect(listTable(page).locator('tbody tr').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await listTable(page).locator('tbody tr').first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/invoice\/view\?id=\d+$/);
    await page.getByRole('link', { name: 'Print' }).click();
    const letterhead = page.getByTestId('print-sheet').getByTestId('letterhead');
    await expect(letterhead).toContainText('Riverbend Ecological Services, LLC');
    await expect(letterhead.locator('address')).toHaveText('2140 Riverbend Way\nSuite 200\nEugene, OR 97401\nUnited States');
    await expect(letterhead).toContainText('Phone (541) 555-0142');
    await expect(letterhead).toContainText('Tax ID 93-4416207');
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
    // The page may show "Saving to NetSuite" only for a moment: the push starts at once and
    // its write-state event refreshes the page as soon as NetSuite has the change.

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

    // Every kind the account has was pulled within the last minute, without errors; the one
    // it lacks is reported as such, and not tried again by the schedule.
    type KindAnswer = { kind: string; label: string; lastRun: string; lastError?: string; unavailable?: string; missing?: string; off?: boolean };
    const answer = (await (await status).json()) as { data: { kinds: KindAnswer[] } };
    expect(answer.data.kinds).toHaveLength(15);
    for (const k of answer.data.kinds) {
      expect(k.off, k.kind).toBeUndefined();
      if (k.kind === NOT_IN_ACCOUNT.kind) {
        expect(k.unavailable, k.kind).toContain(`not in this account: record type ${NOT_IN_ACCOUNT.recordType}`);
        continue;
      }
      expect(k.lastError, k.kind).toBeUndefined();
      expect(k.unavailable, k.kind).toBeUndefined();
      expect(Date.now() - Date.parse(k.lastRun), `${k.kind} last pull age (ms)`).toBeLessThan(60_000);
    }
    expect(answer.data.kinds.find((k) => k.kind === 'customer')?.missing).toBe('balance');

    const table = page.getByRole('table', { name: 'Sync status of each record kind' });
    const rows = table.getByRole('row').filter({ has: page.getByRole('rowheader') });
    await expect(rows).toHaveCount(15);
    const rowOf = (label: string) => rows.filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
    for (const k of answer.data.kinds) {
      const cells = rowOf(k.label).getByRole('cell');
      await expect(cells.nth(0), `${k.label} last pull`).not.toHaveText('never');
      if (k.kind === NOT_IN_ACCOUNT.kind) continue;
      await expect(cells.nth(2), `${k.label} lag`).toHaveText(/^\d+ s$/);
      await expect(cells.nth(3).getByTestId('sync-kind-state'), `${k.label} status`).toHaveText('OK');
    }
    await expect(table.getByTestId('sync-kind-state').filter({ hasText: 'Error' })).toHaveCount(0);

    // The kind the account lacks: a state of the account, with the reason, not an error.
    const missingKind = rowOf(NOT_IN_ACCOUNT.label).getByRole('cell');
    await expect(missingKind.nth(2)).toHaveText('never');
    await expect(missingKind.nth(3).getByTestId('sync-kind-state')).toHaveText('Not in this account');
    await expect(missingKind.nth(3).getByTestId('sync-kind-unavailable')).toHaveText(
      new RegExp(`^Record type ${NOT_IN_ACCOUNT.recordType} \\(table ${NOT_IN_ACCOUNT.recordType}; set kinds\\.${NOT_IN_ACCOUNT.kind}\\.off: true, .*\\) — NetSuite: .+`),
    );
    await expect(missingKind.nth(3)).not.toContainText('erp 400');
    // An optional column the account lacks: named, the kind still fine.
    const clients = rowOf('Clients').getByRole('cell');
    await expect(clients.nth(3).getByTestId('sync-kind-state')).toHaveText('OK');
    await expect(clients.nth(3).getByTestId('sync-kind-missing')).toHaveText('Missing in this account: balance (left empty)');
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
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${ARTIFACTS}/erp-sync-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/erp-sync-390.png`, fullPage: true });
    expect(await problems()).toEqual([]);
  });

  test("an account field of projects is a list column: chosen, sorted by its header and filtered on", async ({ page }) => {
    const problems = await watchProblems(page);
    const kinds = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/kinds' && r.ok());
    await openProjects(page);
    // The registry lists the mapping's account fields with the kind's own.
    const project = ((await (await kinds).json()) as { data: { name: string; fields: { name: string; label: string; type: string; account?: boolean }[] }[] }).data.find(
      (k) => k.name === 'project',
    )!;
    expect(project.fields.filter((f) => f.account).map((f) => [f.label, f.name, f.type])).toEqual([
      ['Service area', ACCOUNT_FIELDS['Service area'], 'text'],
      ['Acres', ACCOUNT_FIELDS.Acres, 'quantity'],
    ]);

    // The column chooser: the built-in list shows every field; take the account's away, then add Acres back.
    await expect(columnHeader(page, 'Acres')).toBeVisible();
    await expect(columnHeader(page, 'Service area')).toBeVisible();
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    const chooser = page.getByRole('dialog');
    // (A change follows the URL, a navigation later: click, then wait for it.)
    for (const label of ['Service area', 'Acres']) {
      await chooser.getByRole('button', { name: `Remove ${label}` }).click();
      await expect(chooser.getByRole('checkbox', { name: new RegExp(`^${label}`) })).not.toBeChecked();
    }
    await expect(listTable(page).getByRole('columnheader', { name: headerName('Project name') })).toBeVisible();
    await expect(columnHeader(page, 'Acres')).toHaveCount(0);
    await expect(columnHeader(page, 'Service area')).toHaveCount(0);
    await chooser.getByRole('checkbox', { name: /^Acres/ }).click();
    await expect(chooser.getByRole('button', { name: 'Remove Acres' })).toBeVisible();
    await expect(page).toHaveURL(/[?&]cols=[^&]*custentity_res_acres(&|$)/);
    await expect(listTable(page).locator('thead th').last()).toHaveText(/^Acres/);
    await page.keyboard.press('Escape');
    await expect(chooser).toHaveCount(0);
    const unsorted = (await columnTexts(page, 'Acres')).map(quantity);
    expect(unsorted).toHaveLength(PER_KIND);
    expect(unsorted.every((n) => Number.isFinite(n) && n > 0), JSON.stringify(unsorted)).toBe(true);

    // Sorted by its header: largest first, then smallest first, by the server (the whole list).
    await columnHeader(page, 'Acres').getByRole('button').click();
    await expect(columnHeader(page, 'Acres')).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/sort=custentity_res_acres&dir=desc/);
    const ascending = [...unsorted].sort((a, b) => a - b);
    const descending = [...ascending].reverse();
    await expect(async () => expect((await columnTexts(page, 'Acres')).map(quantity)).toEqual(descending)).toPass({ timeout: 10_000 });
    await columnHeader(page, 'Acres').getByRole('button').click();
    await expect(columnHeader(page, 'Acres')).toHaveAttribute('aria-sort', 'ascending');
    await expect(async () => expect((await columnTexts(page, 'Acres')).map(quantity)).toEqual(ascending)).toPass({ timeout: 10_000 });
    // Right-aligned, as numbers are.
    expect(await columnHeader(page, 'Acres').evaluate((th) => getComputedStyle(th).textAlign)).toBe('right');

    // The filter builder offers it with a number's operators.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const filter = page.getByRole('form', { name: 'Filter' });
    await filter.getByRole('button', { name: 'Add condition' }).click();
    await filter.getByLabel('Condition 1 field').selectOption({ label: 'Acres' });
    await filter.getByLabel('Condition 1 operator').selectOption({ label: 'more than' });
    const threshold = descending[Math.floor(PER_KIND / 3)]!;
    await filter.getByLabel('Condition 1 value').fill(String(threshold));
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page).toHaveURL(new RegExp(`filter=custentity_res_acres\\+gt\\+${String(threshold).replace('.', '\\.')}`));
    // The filter keeps the sort: smallest first.
    const above = ascending.filter((n) => n > threshold);
    await expect(page.getByTestId('list-total')).toHaveText(`${above.length} records`);
    await expect(async () => expect((await columnTexts(page, 'Acres')).map(quantity)).toEqual(above)).toPass({ timeout: 10_000 });
    await page.screenshot({ path: `${ARTIFACTS}/erp-project-list-account-field.png`, fullPage: true });
    expect(await problems()).toEqual([]);
  });

  test("a project's account fields show on its page, and an edit of them is saved to NetSuite", async ({ page, request }) => {
    const problems = await watchProblems(page);
    await openProjects(page);
    // The projects with a service area (mitigation banks), through the filter builder on the text field.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const filter = page.getByRole('form', { name: 'Filter' });
    await filter.getByRole('button', { name: 'Add condition' }).click();
    await filter.getByLabel('Condition 1 field').selectOption({ label: 'Service area' });
    await expect(filter.getByLabel('Condition 1 operator')).toHaveValue('contains');
    await filter.getByLabel('Condition 1 value').fill('River Basin');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('list-total')).toHaveText(/^\d+ records?$/);
    // The total above may still be the unfiltered list's: wait for the filtered rows.
    await expect(async () => {
      const shown = await columnTexts(page, 'Service area');
      expect(shown.length).toBeGreaterThan(0);
      for (const area of shown) expect(area).toMatch(/River Basin$/);
    }).toPass({ timeout: 10_000 });
    const areas = await columnTexts(page, 'Service area');

    // Its page shows both among the declared fields, labelled, each in the group of what it
    // holds (the text under Details, the quantity under Amounts, formatted), not among the
    // account's undeclared fields.
    const link = listTable(page).locator('tbody tr').first().getByRole('link').first();
    const name = (await link.textContent())!.trim();
    await link.click();
    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await expect(fieldValue(page, 'Details', 'Service area')).toHaveText(areas[0]!);
    await expect(fieldValue(page, 'Amounts', 'Acres')).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(page.getByTestId('other-fields').locator('dt').filter({ hasText: /^\s*(Service area|Acres)\s*$/i })).toHaveCount(0);
    const acresBefore = (await fieldValue(page, 'Amounts', 'Acres').textContent())!;
    const before = await netsuiteRecord(request, 'job', id);
    expect(before[ACCOUNT_FIELDS.Acres]).toBe(quantity(acresBefore));
    expect(before[ACCOUNT_FIELDS['Service area']]).toBe(areas[0]);

    // The edit form has an input for each, with the record's values.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(/\/project\/edit\?id=\d+$/);
    const acresBox = page.getByRole('textbox', { name: 'Acres' });
    const areaBox = page.getByRole('textbox', { name: 'Service area' });
    // (The page shows a quantity with two decimals, the input as typed: "284.90" is "284.9" there.)
    await expect(acresBox).toHaveValue(/\d/);
    expect(quantity(await acresBox.inputValue())).toBe(quantity(acresBefore));
    await expect(areaBox).toHaveValue(areas[0]!);
    const newArea = `${areas[0]} (edited ${Date.now() % 100000})`;
    await acresBox.fill('4321.5');
    await areaBox.fill(newArea);
    await expect(acresBox).toHaveValue('4,321.5');
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('-crud') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    const sent = answer.request().postDataJSON() as { fields: Record<string, unknown> };
    expect(sent.fields[ACCOUNT_FIELDS.Acres]).toBe(4321.5);
    expect(sent.fields[ACCOUNT_FIELDS['Service area']]).toBe(newArea);
    expect(((await answer.json()) as { data: { write?: { state: string } } }).data.write?.state).toBe('pending');

    // The edit reaches NetSuite (pending, often only for a moment); the page shows the new values.
    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    await expect(fieldValue(page, 'Amounts', 'Acres')).toHaveText('4,321.50');
    await expect(fieldValue(page, 'Details', 'Service area')).toHaveText(newArea);
    await expect(pendingNotice(page)).toHaveCount(0, { timeout: 10_000 });
    await expect(writeState(page)).toHaveCount(0);

    // NetSuite has them, under the fields' own ids.
    const after = await netsuiteRecord(request, 'job', id);
    expect(after[ACCOUNT_FIELDS.Acres]).toBe(4321.5);
    expect(after[ACCOUNT_FIELDS['Service area']]).toBe(newArea);

    // A fresh load once the next pull (every 2 s) read the record back from NetSuite: its values.
    await page.waitForTimeout(2_500);
    await page.reload();
    await expect(userButton(page, users.ada.fullName)).toBeVisible();
    await expect(fieldValue(page, 'Amounts', 'Acres')).toHaveText('4,321.50');
    await expect(fieldValue(page, 'Details', 'Service area')).toHaveText(newArea);
    await expect(writeState(page)).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/erp-project-account-fields.png`, fullPage: true });

    // The list filters and shows the new value: the only project over 600 acres (the fake's are below).
    await page.goto(`/project/list?filter=${encodeURIComponent(`${ACCOUNT_FIELDS.Acres} gt 600`)}`);
    await expect(page.getByTestId('list-total')).toHaveText('1 record');
    await expect(listTable(page).getByRole('link', { name, exact: true })).toBeVisible();
    expect(await columnTexts(page, 'Acres')).toEqual(['4,321.50']);
    expect(await columnTexts(page, 'Service area')).toEqual([newArea]);
    expect(await problems()).toEqual([]);
  });
});


test.describe('Approvals in NetSuite mode', () => {
  test('Pete approves a bill of his project that NetSuite routed to him, and NetSuite has it approved', async ({ page, request }) => {
    test.setTimeout(120_000); // two pulls and a push, each on the sync's 2 s beat
    // NetSuite's approval routing: a new bill of a project Pete manages waits for him (employee 2).
    let answer = await netsuite(request, 'PATCH', 'job/1', { projectManager: { id: '2' } });
    expect(answer.status(), await answer.text()).toBe(204);
    const memo = `Willow stakes, approval test ${Date.now() % 1_000_000}`;
    answer = await netsuite(request, 'POST', 'vendorbill', {
      tranId: `APR-${Date.now() % 1_000_000}`,
      memo,
      entity: { id: '1' },
      tranDate: new Date().toISOString().slice(0, 10),
      custbody_res_project: { id: '1' },
      approvalStatus: { id: '1' },
      nextApprover: { id: '2' },
    });
    expect(answer.status(), await answer.text()).toBe(204);
    const id = Number(answer.headers()['location'].split('/').pop());
    expect(id).toBeGreaterThan(0);

    const problems = await watchProblems(page);
    await signIn(page, users.pete.email, users.pete.fullName);
    // The next pull (every 2 s) brings the bill and the project's manager: the dashboard counts it.
    const awaiting = page.getByRole('heading', { level: 2, name: 'Awaiting my approval' });
    await expect(async () => {
      await page.reload();
      await expect(awaiting).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.screenshot({ path: `${ARTIFACTS}/approvals-dashboard.png`, fullPage: true });
    await page.getByRole('link', { name: /^View vendor bills? awaiting my approval$/ }).click();
    await expect(page).toHaveURL(/\/vendorbill\/list\?/);
    await listTable(page).getByRole('link', { name: memo, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/vendorbill/view\\?id=${id}$`));
    await expect(page.getByRole('heading', { level: 1, name: memo, exact: true })).toBeVisible();

    // Approve, with a comment.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve vendor bill' });
    await dialog.getByRole('textbox', { name: 'Comment (optional)' }).fill('Matches the delivery note.');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const blocking = (await runAxe(page)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), scheme).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/approvals-dialog-${scheme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const decided = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('-approval'));
    await dialog.getByRole('button', { name: 'Approve vendor bill' }).click();
    expect((await decided).status()).toBe(200);
    await expect(page.getByText(/^Approved\./)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

    // Through the outbox to NetSuite, once: approved there, its status moved on and no one next.
    await expect.poll(async () => ((await netsuiteRecord(request, 'vendorbill', id)).approvalStatus as { id?: string })?.id, { timeout: 15_000 }).toBe('2');
    const bill = await netsuiteRecord(request, 'vendorbill', id);
    expect((bill.status as { refName?: string }).refName).toBe('Open');
    expect(bill.nextApprover).toBeUndefined();

    // Read back from NetSuite: approved and open, no longer awaiting Pete, the comment in its notes.
    await expect(async () => {
      await page.reload();
      await expect(fieldValue(page, 'Details', 'Approval status')).toHaveText('Approved', { timeout: 2_000 });
      await expect(page.getByRole('list', { name: 'Status' })).toHaveText('Open', { timeout: 1_000 });
      await expect(fieldValue(page, 'Details', 'Next approver')).toHaveText('—', { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(writeState(page)).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Vendor bill sections' }).getByRole('link', { name: 'Notes', exact: true }).click();
    await expect(page.getByText('Approved: Matches the delivery note.')).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/approvals-bill.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/approvals-bill-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await problems()).toEqual([]);
  });
});
