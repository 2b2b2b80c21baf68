import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

/** What the tests need of GET /api/v1/kinds. */
interface Kind {
  name: string;
  route: string;
  label: string;
  plural: string;
  tabs: { name: string; label: string; source: string }[];
}

/** A transaction's lines (a "lines" tab) show on its page itself, not as a tab. */
const isLineItems = (tab: { source: string }) => tab.source === 'lines';

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/**
 * Waits until a record tab has finished loading, and checks it did not fail: it shows its
 * rows in a table named as the tab (a tab may show others too, such as totals by status),
 * or says it has none.
 */
async function expectTabLoaded(page: Page, label: string) {
  const tab = page.getByTestId('record-tab');
  await expect(tab).toBeVisible();
  await expect(tab.getByTestId('loading')).toHaveCount(0);
  await expect(tab.getByTestId('load-error')).toHaveCount(0);
  await expect(tab.getByRole('table', { name: label, exact: true }).or(tab.getByTestId('empty'))).toBeVisible();
}

async function loadKinds(page: Page): Promise<Kind[]> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/kinds' && r.ok());
  await page.goto('/project/list');
  return ((await (await answer).json()) as { data: Kind[] }).data;
}

test.describe('records', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('every kind: list → view → each tab', async ({ page }) => {
    test.setTimeout(240_000);
    const problems = await watchProblems(page);
    const kinds = await loadKinds(page);
    expect(kinds).toHaveLength(15);

    for (const kind of kinds) {
      await test.step(kind.name, async () => {
        await page.goto(`/${kind.route}/list`);
        await expect(page.getByRole('heading', { level: 1, name: kind.plural, exact: true })).toBeVisible();
        const table = listTable(page);
        await expect(table).toBeVisible();
        expect(await table.locator('tbody tr').count(), `${kind.name} has rows`).toBeGreaterThan(0);

        // Every kind has a view page: its rows link to theirs.
        const first = table.locator('tbody tr').first().getByRole('link').first();
        const title = (await first.textContent())!;
        await expect(first).toHaveAttribute('href', new RegExp(`^/${kind.route}/view\\?id=\\d+$`));
        await first.click();
        await expect(page).toHaveURL(new RegExp(`/${kind.route}/view\\?id=\\d+$`));
        await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
        await expect(page.getByTestId('field-groups')).toBeVisible();

        const nav = page.getByRole('navigation', { name: `${kind.label} sections` });
        await expect(page).toHaveTitle(`${title} · ${kind.label} · Portico`);
        await expect(nav.getByRole('link', { name: 'Details', exact: true })).toHaveAttribute('aria-current', 'page');
        // A transaction's lines show on its page, not as tabs. It may have no lines of one
        // of its sublists (a vendor bill of expenses has no items): that section is left out.
        for (const tab of kind.tabs.filter(isLineItems)) {
          await expect(nav.getByRole('link', { name: tab.label, exact: true })).toHaveCount(0);
        }
        if (kind.tabs.some(isLineItems)) {
          await expect(page.getByTestId('line-items').getByRole('table').first()).toBeVisible();
          await expect(page.getByTestId('line-items').getByText(/ has no /)).toHaveCount(0);
        }
        for (const tab of kind.tabs.filter((t) => !isLineItems(t))) {
          await nav.getByRole('link', { name: tab.label, exact: true }).click();
          await expect(page).toHaveURL(new RegExp(`/${kind.route}/view/${tab.name}\\?id=\\d+$`));
          await expect(nav.getByRole('link', { name: tab.label, exact: true })).toHaveAttribute('aria-current', 'page');
          await expectTabLoaded(page, tab.label);
        }
        // Back to the details.
        await nav.getByRole('link', { name: 'Details', exact: true }).click();
        await expect(page.getByTestId('field-groups')).toBeVisible();
      });
    }
    expect(await problems()).toEqual([]);
  });

  test('a saved list made in /list/edit shows on its list and becomes the default', async ({ page }) => {
    const name = `Active by start ${Date.now()}`;
    await page.goto('/list/edit?type=project');
    await expect(page.getByRole('heading', { level: 1, name: 'New list of projects' })).toBeVisible();
    await page.getByLabel(/^Name/).fill(name);
    await page.getByRole('button', { name: 'Remove Client' }).click();
    await page.getByRole('button', { name: 'Remove Project ID' }).click();
    // Start date to the front, by keyboard.
    await page.getByRole('button', { name: 'Move Start date up' }).focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Condition 1 field').selectOption('entitystatus');
    await page.getByLabel('Condition 1 value').selectOption('Active');
    await page.getByLabel('Sort by').selectOption('startdate');
    await page.getByLabel('Direction').selectOption('desc');
    await page.getByRole('button', { name: 'Save list' }).click();

    await expect(page).toHaveURL(/\/project\/list\?list=list-[0-9a-f]+$/);
    await expect(page.getByTestId('list-name')).toHaveText(name);
    const table = listTable(page);
    // (The first column selects rows.)
    await expect(table.getByRole('columnheader')).toHaveText(['', /^Start date/, /^Project name/, /^Status/, /^Contract value/]);
    await expect(table.getByRole('columnheader', { name: /^Start date/ })).toHaveAttribute('aria-sort', 'descending');
    const statuses = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['Active']));
    const dates = (await table.locator('tbody tr td:nth-child(2)').allTextContents()).map((d) => Date.parse(d));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    // It is the default now: the plain list path opens it, after a reload too.
    const listId = new URL(page.url()).searchParams.get('list')!;
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('defaultLists') ?? '{}'))).toEqual({ project: listId });
    await page.goto('/project/list');
    await expect(page.getByTestId('list-name')).toHaveText(name);
    await expect(page.getByLabel('Saved list')).toHaveValue(listId);

    // Edit it: the change shows at once.
    await page.getByRole('link', { name: 'Edit list' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Edit “${name}”` })).toBeVisible();
    await page.getByRole('button', { name: 'Remove Contract value' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/list\\?list=${listId}$`));
    await expect(listTable(page).getByRole('columnheader')).toHaveText(['', /^Start date/, /^Project name/, /^Status/]);

    // Delete it: back to the standard list.
    await page.getByRole('link', { name: 'Edit list' }).click();
    await page.getByRole('button', { name: 'Delete list' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect(page.getByTestId('list-name')).toHaveText('All projects');
    await expect(page.getByLabel('Saved list').locator('option', { hasText: name })).toHaveCount(0);
  });

  test('CSV export downloads the filtered rows', async ({ page }) => {
    await page.goto(`/project/list?${new URLSearchParams({ filter: 'entitystatus eq Active', sort: 'startdate', dir: 'desc', size: '200' })}`);
    const table = listTable(page);
    await expect(table).toBeVisible();
    const shown = await table.locator('tbody tr').count();
    expect(shown).toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const titles = await table.locator('tbody tr td:nth-child(2)').allTextContents();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    // Named after what it holds; a byte-order mark makes Excel read it as UTF-8.
    expect(download.suggestedFilename()).toMatch(/^projects-filtered-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.startsWith('\ufeff')).toBe(true);
    const lines = csv.slice(1).trim().split(/\r?\n/);
    // Amounts alone do not say their currency: a column does (the demo's projects are in its base, USD).
    expect(lines[0]).toBe('Project name,Project ID,Status,Client,Contract value,Start date,Currency');
    expect(lines).toHaveLength(shown + 1);
    for (const line of lines.slice(1)) expect(line.endsWith(',USD'), line).toBe(true);
    const statusOf = (line: string) => line.match(/(?:^|,)(Proposed|Planning|Active|Monitoring|Closed)(?:,|$)/)?.[1];
    for (const line of lines.slice(1)) expect(statusOf(line), line).toBe('Active');
    // Same rows, same order as the table.
    expect(lines.slice(1).map((l) => l.replace(/^"((?:[^"]|"")*)".*$|^([^,]*).*$/, (_m, q: string, b: string) => (q ?? b).replace(/""/g, '"')))).toEqual(titles);
  });

  test('the total shows for a filtered list', async ({ page }) => {
    const counted = page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('-list') && url.searchParams.get('count') === 'true';
    });
    await page.goto(`/project/list?${new URLSearchParams({ filter: 'entitystatus eq Active', size: '200' })}`);
    const table = listTable(page);
    await expect(table).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const rows = await table.locator('tbody tr').count();
    await expect(page.getByTestId('list-total')).toHaveText(`${rows.toLocaleString('en-US')} ${rows === 1 ? 'record' : 'records'}`);
    // The count is its own small request for the same filter.
    const count = new URL((await counted).url()).searchParams;
    expect(count.get('filter')).toBe('entitystatus eq Active');
    expect(count.get('pageSize')).toBe('1');
  });

  test('adding a column from the chooser shows it and survives a reload', async ({ page }) => {
    // A saved list without the Client column.
    const name = `No clients ${Date.now()}`;
    await page.goto('/list/edit?type=project');
    await page.getByLabel(/^Name/).fill(name);
    await page.getByRole('button', { name: 'Remove Client' }).click();
    await page.getByRole('button', { name: 'Save list' }).click();
    await expect(page).toHaveURL(/\/project\/list\?list=list-[0-9a-f]+$/);
    const table = listTable(page);
    await expect(table.getByRole('columnheader')).toHaveText(['', /^Project name/, /^Project ID/, /^Status/, /^Contract value/, /^Start date/]);

    await page.getByRole('button', { name: 'Columns' }).click();
    const client = page.getByRole('checkbox', { name: 'Client' });
    await expect(client).not.toBeChecked();
    // Its state lives in the URL: once added, it is among the columns shown.
    await client.click();
    await expect(page.getByRole('button', { name: 'Remove Client' })).toBeVisible();
    await expect(page).toHaveURL(/[?&]cols=companyname%2Centityid%2Centitystatus%2Cprojectedtotal%2Cstartdate%2Ccustomer(&|$)/);
    const withClient = ['', /^Project name/, /^Project ID/, /^Status/, /^Contract value/, /^Start date/, /^Client/];
    await expect(table.getByRole('columnheader')).toHaveText(withClient);
    await page.keyboard.press('Escape');
    const clients = table.locator('tbody tr td:nth-child(7)');
    await expect(clients.getByRole('link').first()).toHaveAttribute('href', /^\/customer\/view\?id=\d+$/);

    await page.reload();
    await expect(listTable(page).getByRole('columnheader')).toHaveText(withClient);
    await expect(page.getByRole('button', { name: /^Columns \(6 of \d+\)$/ })).toBeVisible();

    // Clean up: delete the list.
    await page.getByRole('link', { name: 'Edit list' }).click();
    await page.getByRole('button', { name: 'Delete list' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(/\/project\/list$/);
  });

  test('a reference filter picks the record by name', async ({ page }) => {
    await page.goto('/project/list');
    const table = listTable(page);
    const client = (await table.locator('tbody tr td:nth-child(5)').first().textContent())!.trim();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Condition 1 field').selectOption('customer');
    const lookup = page.getByRole('combobox', { name: 'Condition 1 value' });
    await lookup.fill(client);
    await page.getByRole('listbox', { name: 'Condition 1 value: matching records' }).getByRole('option').filter({ hasText: client }).first().click();
    await expect(lookup).toHaveValue(client);
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page).toHaveURL(/filter=customer\+eq\+\d+/);
    // The rows before the filter stay until the filtered ones are in: wait for those.
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    await expect(async () => expect(new Set(await table.locator('tbody tr td:nth-child(5)').allTextContents())).toEqual(new Set([client]))).toPass();
    // The applied filter still names the client.
    await expect(page.getByRole('combobox', { name: 'Condition 1 value' })).toHaveValue(client);
  });

  test('a file downloads', async ({ page }) => {
    await page.goto('/project/list');
    await listTable(page).locator('tbody tr').first().getByRole('link').first().click();
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Files' }).click();
    const first = page.getByTestId('record-tab').getByRole('button', { name: /^Download / }).first();
    await expect(first).toBeVisible();
    const fileName = (await first.textContent())!.trim();
    const downloading = page.waitForEvent('download');
    await first.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const bytes = await readFile((await download.path())!);
    expect(bytes.length).toBeGreaterThan(0);
    if (fileName.endsWith('.png')) expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    if (fileName.endsWith('.pdf')) expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('a bad filter shows the server’s message and keeps the input', async ({ page }) => {
    await page.goto('/project/list');
    await expect(listTable(page)).toBeVisible();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByRole('button', { name: 'Edit as text' }).click();
    await page.getByLabel('Filter expression').fill('projectedtotal gt lots');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('filter-error')).toContainText('Contract value: "lots" is not a number');
    await expect(page.getByLabel('Condition 1 value')).toHaveValue('lots');
    await expect(page).toHaveURL(/filter=projectedtotal\+gt\+lots/);
  });

  test('Back restores the list’s sort and page', async ({ page }) => {
    await page.goto('/project/list?size=25');
    const table = listTable(page);
    await expect(table).toBeVisible();
    // An amount sorts largest first.
    await table.getByRole('button', { name: /^Contract value/ }).click();
    await expect(page).toHaveURL(/sort=projectedtotal&dir=desc/);
    await expect(table.getByRole('columnheader', { name: /^Contract value/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    // A click that lands while the sorted page replaces the first answer can go unheeded
    // (seen once in CI): click again, but only while the next page has not been asked for,
    // since on a slow machine a second heeded click would go two pages on.
    await expect(async () => {
      if (!/after=/.test(page.url())) await page.getByRole('button', { name: 'Next page' }).click({ timeout: 2_000 });
      await expect(page).toHaveURL(/after=/, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByText(/^Rows 26–/)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/project\/list\?sort=projectedtotal&dir=desc&size=25$/);
    await expect(page.getByText(/^Rows 1–25/)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/project\/list\?size=25$/);
    await expect(table.getByRole('columnheader', { name: /^Project name/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  test('screenshots: project list and view at 1280 and 390 px', async ({ page }) => {
    for (const [width, height, suffix] of [
      [1280, 800, ''],
      [390, 844, '-mobile'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto('/project/list');
      await expect(listTable(page)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `no page-wide horizontal scrolling at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${ARTIFACTS}/project-list${suffix}.png`, fullPage: true });
      if (suffix) await page.screenshot({ path: `${ARTIFACTS}/project-list${suffix}-top.png` });

      await listTable(page).locator('tbody tr').first().getByRole('link').first().click();
      await expect(page.getByTestId('field-groups')).toBeVisible();
      const viewOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(viewOverflow, `no page-wide horizontal scrolling at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${ARTIFACTS}/project-view${suffix}.png`, fullPage: true });
      if (suffix) await page.screenshot({ path: `${ARTIFACTS}/project-view${suffix}-top.png` });

      await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Billing' }).click();
      await expectTabLoaded(page, 'Billing');
      await page.screenshot({ path: `${ARTIFACTS}/project-view-billing${suffix}.png`, fullPage: true });
    }
  });
});
