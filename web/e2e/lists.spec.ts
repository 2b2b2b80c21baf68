import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ARTIFACTS, expectSameSums, signIn, sumBySymbol, unitTotals, users, watchProblems } from './support';

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/** The texts of a column's cells (1-based among the table's columns, the selection column first). */
async function cellTexts(table: Locator, column: number): Promise<string[]> {
  return (await table.locator(`tbody tr td:nth-child(${column})`).allTextContents()).map((t) => t.trim());
}

/** The index (1-based) of a column by its header's name. */
async function columnIndex(table: Locator, name: RegExp): Promise<number> {
  const headers = (await table.getByRole('columnheader').allTextContents()).map((t) => t.trim());
  const at = headers.findIndex((h) => name.test(h));
  expect(at, `column ${name} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return at + 1;
}

/** "Mar 7, 2024" (or "—") → a sortable time; no value → null. */
function day(text: string): number | null {
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : t;
}

test.describe('lists', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('a column the list does not show (invoice due date) is added, sorted and totalled', async ({ page }) => {
    const problems = await watchProblems(page);
    await page.goto('/invoice/list?size=200');
    const table = listTable(page);
    await expect(table).toBeVisible();
    // Invoices come newest first.
    await expect(page.getByTestId('list-sort')).toHaveText(/Sorted by Invoice date, newest first/);
    await expect(table.getByRole('columnheader', { name: /^Invoice date/ })).toHaveAttribute('aria-sort', 'descending');

    // Add Due date and Amount remaining from the chooser, found by name.
    await page.getByRole('button', { name: /^Columns/ }).click();
    const chooser = page.getByRole('dialog');
    await chooser.getByLabel('Find a field').fill('due');
    await chooser.getByRole('checkbox', { name: /^Due date/ }).click();
    await expect(table.getByRole('columnheader', { name: /^Due date/ })).toBeVisible();
    await chooser.getByLabel('Find a field').fill('remaining');
    await chooser.getByRole('checkbox', { name: /^Amount remaining/ }).click();
    await expect(table.getByRole('columnheader', { name: /^Amount remaining/ })).toBeVisible();
    await expect(page).toHaveURL(/[?&]cols=[^&]*duedate%2Camountremaining/);
    // Reorder: Due date one place up.
    await chooser.getByRole('button', { name: 'Move Due date up' }).click();
    await expect(page).toHaveURL(/[?&]cols=[^&]*duedate%2C[a-z]+%2Camountremaining/);
    // The table shows the new order once the rows for it are in.
    await expect(async () => expect((await columnIndex(table, /^Amount remaining/)) - (await columnIndex(table, /^Due date/))).toBe(2)).toPass();
    await page.keyboard.press('Escape');

    // Sort by due date: newest first, then oldest first; the rows follow.
    const due = await columnIndex(table, /^Due date/);
    await table.getByRole('button', { name: /^Due date/ }).click();
    await expect(table.getByRole('columnheader', { name: /^Due date/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/[?&]sort=duedate&dir=desc/);
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    let dates = (await cellTexts(table, due)).map(day).filter((d): d is number => d !== null);
    expect(dates.length).toBeGreaterThan(5);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    await table.getByRole('button', { name: /^Due date/ }).click();
    await expect(table.getByRole('columnheader', { name: /^Due date/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    dates = (await cellTexts(table, due)).map(day).filter((d): d is number => d !== null);
    expect(dates).toEqual([...dates].sort((a, b) => a - b));

    // The totals row: every invoice is on this page, so its totals are the page's sums, one
    // per currency (the demo invoices its Canadian clients in CAD), never added together.
    await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const footer = page.getByTestId('totals-row');
    await expect(footer).toBeVisible();
    await expect(footer.getByRole('rowheader')).toHaveText(/^(≈ )?Total/);
    const remaining = await columnIndex(table, /^Amount remaining/);
    const sums = sumBySymbol(await cellTexts(table, remaining));
    const shown = await unitTotals(footer.locator(`th:nth-child(${remaining}), td:nth-child(${remaining})`));
    for (const total of shown) expect(total).toMatch(/^\D*\$[\d,]+\.\d{2}$/);
    expectSameSums(sumBySymbol(shown), sums);
    await page.screenshot({ path: `${ARTIFACTS}/invoice-list-due-date.png`, fullPage: true });
    expect(await problems()).toEqual([]);
  });

  test('bulk edit: a field set on three selected records, each saved and shown', async ({ page }) => {
    // Approved requests: the demo data has many (drafts are only among the last month's requests, often none).
    await page.goto(`/projectrequest/list?${new URLSearchParams({ filter: 'custrecord_res_pr_status eq Approved', size: '25' })}`);
    const table = listTable(page);
    await expect(table).toBeVisible();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const box = rows.nth(i).getByRole('checkbox');
      names.push(((await box.getAttribute('aria-label')) ?? '').replace(/^Select /, ''));
      // The keyboard selects too: Space on the focused box.
      await box.focus();
      await page.keyboard.press('Space');
      await expect(box).toBeChecked();
    }
    await expect(page.getByTestId('selection-count')).toHaveText('3 project requests selected');

    await page.getByRole('button', { name: 'Edit a field…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit 3 project requests' });
    await dialog.getByLabel('Field').selectOption({ label: 'Status' });
    await dialog.getByLabel('Status').selectOption('Rejected');
    await dialog.getByRole('button', { name: 'Apply to 3 project requests' }).click();
    await expect(dialog.getByTestId('bulk-result')).toContainText('Saved 3 of 3 project requests.');
    await page.screenshot({ path: `${ARTIFACTS}/bulk-edit-result.png` });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    // They no longer match the list's filter; the selection was of saved records.
    for (const name of names) await expect(table.getByRole('link', { name, exact: true })).toHaveCount(0);
    await expect(page.getByTestId('selection-count')).toHaveCount(0);

    // Each is Rejected now; then put back as it was.
    await page.goto(`/projectrequest/list?${new URLSearchParams({ filter: 'custrecord_res_pr_status eq Rejected', size: '200' })}`);
    for (const name of names) {
      const row = listTable(page).locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
      await expect(row).toHaveCount(1);
      await row.getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: 'Edit a field…' }).click();
    const back = page.getByRole('dialog');
    await back.getByLabel('Field').selectOption({ label: 'Status' });
    await back.getByLabel('Status').selectOption('Approved');
    await back.getByRole('button', { name: /^Apply to 3/ }).click();
    await expect(back.getByTestId('bulk-result')).toContainText('Saved 3 of 3');
    await back.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('export selected: a CSV of the selected rows, in the order picked', async ({ page }) => {
    await page.goto('/project/list?size=25');
    const table = listTable(page);
    await expect(table).toBeVisible();
    const rows = table.locator('tbody tr');
    const second = rows.nth(1);
    const fourth = rows.nth(3);
    const name = async (row: Locator) => ((await row.getByRole('checkbox').getAttribute('aria-label')) ?? '').replace(/^Select /, '');
    const picked = [await name(fourth), await name(second)];
    await fourth.getByRole('checkbox').check();
    await second.getByRole('checkbox').check();
    await expect(page.getByTestId('selection-count')).toHaveText('2 projects selected');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export selected' }).click();
    const selected = await downloading;
    expect(selected.suggestedFilename()).toMatch(/^projects-selected-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await selected.path())!, 'utf8');
    const lines = csv.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Project name,/);
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map((l) => l.replace(/^"((?:[^"]|"")*)".*$|^([^,]*).*$/, (_m, q: string, b: string) => (q ?? b).replace(/""/g, '"')))).toEqual(picked);

    // Select all on the page, then clear.
    await table.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await expect(page.getByTestId('selection-count')).toHaveText(`${await rows.count()} projects selected`);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByTestId('selection-count')).toHaveCount(0);
  });

  test('keyboard shortcuts: ? lists them, g and a letter opens a list, / searches, e edits', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // The shortcuts load a moment after a fresh page shows; until then a key does nothing.
    await expect(page.getByTestId('shortcuts')).toBeAttached();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toBeVisible();
    const invoices = sheet.getByRole('table', { name: 'Go to' }).getByRole('row', { name: /Invoices/ });
    const letter = (await invoices.locator('kbd').nth(1).textContent())!.trim();
    expect(letter).toMatch(/^[a-z]$/);
    await page.screenshot({ path: `${ARTIFACTS}/shortcuts-sheet.png` });
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    await page.keyboard.press('g');
    await page.keyboard.press(letter);
    await expect(page).toHaveURL(/\/invoice\/list$/);
    await expect(listTable(page)).toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByLabel('Search invoices')).toBeFocused();
    // Typing is typing: g and / go into the box.
    await page.keyboard.type('g/');
    await expect(page.getByLabel('Search invoices')).toHaveValue('g/');
    await expect(page).toHaveURL(/\/invoice\/list/);
    await page.getByLabel('Search invoices').fill('');
    await page.getByRole('heading', { level: 1 }).click();

    await page.goto('/project/list');
    const first = listTable(page).locator('tbody tr').first().getByRole('link').first();
    const title = (await first.textContent())!;
    await first.click();
    await expect(page).toHaveURL(/\/project\/view\?id=(\d+)$/);
    const id = new URL(page.url()).searchParams.get('id');
    // `e` acts on the record page once it shows, and once the shortcuts listen.
    await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
    await expect(page.getByTestId('shortcuts')).toBeAttached();
    await page.keyboard.press('e');
    await expect(page).toHaveURL(new RegExp(`/project/edit\\?id=${id}$`));
  });

  test('page jump, first page, and a new page starts at its top', async ({ page }) => {
    await page.goto('/project/list?size=25');
    const table = listTable(page);
    await expect(table).toBeVisible();
    const firstTitles = await cellTexts(table, 2);
    await expect(page.getByTestId('page-count')).toHaveText(/^of ~?2$/);

    // From the bottom of page 1, Next: page 2 shows from its top, its table focused.
    await page.getByRole('button', { name: 'Next page' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByTestId('page-number')).toHaveValue('2');
    await expect(page.getByRole('table', { name: /, page 2$/ })).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // Go to page 1 by number (its cursor is known), then to 2 again.
    await page.getByTestId('page-number').fill('1');
    await page.getByTestId('page-number').press('Enter');
    await expect(page.getByRole('table', { name: /, page 1$/ })).toBeVisible();
    expect(await cellTexts(listTable(page), 2)).toEqual(firstTitles);
    await page.getByTestId('page-number').fill('2');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await expect(page.getByRole('table', { name: /, page 2$/ })).toBeVisible();
    // A page past the end says so.
    await page.getByTestId('page-number').fill('7');
    await page.getByTestId('page-number').press('Enter');
    // (The count of 50 projects is exact: no "about".)
    await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('status')).toHaveText(/^There are (about )?2 pages\.$/);
    await page.getByRole('button', { name: 'First page' }).click();
    await expect(page.getByRole('table', { name: /, page 1$/ })).toBeVisible();
    await expect(page).toHaveURL(/\/project\/list\?size=25$/);
  });

  test('screenshots: a list with a selection at 1280 and 390 px', async ({ page }) => {
    for (const [width, height, suffix] of [
      [1280, 800, ''],
      [390, 844, '-mobile'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto('/invoice/list?size=25');
      const table = listTable(page);
      await expect(table).toBeVisible();
      await table.locator('tbody tr').nth(0).getByRole('checkbox').check();
      await table.locator('tbody tr').nth(2).getByRole('checkbox').check();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `no page-wide horizontal scrolling at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${ARTIFACTS}/invoice-list-selection${suffix}.png`, fullPage: true });
    }
  });

  test('on a phone a list is cards: each record shows its client and amount, with no sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/invoice/list?size=25');
    const table = listTable(page);
    await expect(table.locator('tbody tr')).toHaveCount(25);
    const wrap = table.locator('xpath=..');
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth), 'the table scrolls sideways').toBeLessThanOrEqual(0);
    const card = table.locator('tbody tr').first();
    for (const label of ['Client', 'Amount']) {
      const cell = card.locator(`td[data-label="${label}"]`);
      await expect(cell, label).toBeVisible();
      await expect(cell, label).not.toHaveText('');
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width, `${label} within the screen`).toBeLessThanOrEqual(390);
    }
    // Still a table to assistive technology: its cells are named by their column headers.
    await expect(card.getByRole('cell').nth(2)).toBeVisible();
    await expect(table.getByRole('columnheader', { name: /^Client/ })).toHaveCount(1);
    // Sorting stays at hand: the sortable headers are buttons above the cards.
    await table.getByRole('button', { name: /^Amount/ }).click();
    await expect(page).toHaveURL(/sort=total/);
    await page.screenshot({ path: `${ARTIFACTS}/invoice-list-cards-390.png`, fullPage: true });
  });

  test("inline edit: a project's status changed in its list cell is saved", async ({ page }) => {
    const problems = await watchProblems(page);
    await page.goto('/project/list?size=25');
    const table = listTable(page);
    const row = table.locator('tbody tr').nth(3);
    const name = (await row.locator('td[data-title]').innerText()).trim();
    const status = row.locator('td[data-label="Status"]');
    const before = (await status.innerText()).trim();
    const after = before === 'Monitoring' ? 'Planning' : 'Monitoring';

    const pencil = row.getByRole('button', { name: `Change Status of “${name}”` });
    await pencil.click();
    const editor = page.getByRole('dialog', { name: `Change Status of “${name}”` });
    await editor.getByRole('combobox', { name: 'Status' }).selectOption(after);
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('-crud') && r.request().method() === 'PUT');
    await editor.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: /^Saved\./ })).toBeVisible();
    await expect(editor).toHaveCount(0);
    await expect(pencil).toBeFocused();
    await expect(status).toHaveText(after);

    // The record has it: its page, and the list after a reload.
    await page.reload();
    await expect(listTable(page).locator('tbody tr').filter({ hasText: name }).locator('td[data-label="Status"]')).toHaveText(after);
    await page.screenshot({ path: `${ARTIFACTS}/inline-edit.png` });
    expect(await problems()).toEqual([]);
  });
});
