import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { ARTIFACTS, expectSameSums, mainMenu, signIn, sumBySymbol, unitTotals, userButton, users, watchProblems } from './support';

/**
 * The role dashboards, the feedback form and the audit log as staff use them: Pete (a
 * project manager) sees only his own projects; the accountant sees what is owed and how
 * late, and a figure opens the list with the same filter and the same count; feedback
 * reads naturally; the audit log reads in names, not ids. Screenshots at 1280 and 390 px
 * in both colour schemes.
 */

const SIZES = [
  { width: 1280, height: 900, suffix: '' },
  { width: 390, height: 844, suffix: '-390' },
] as const;

/** Screenshots of the page as it is, at both widths and in both schemes. */
async function screenshots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.screenshot({ path: `${ARTIFACTS}/${name}${size.suffix}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The count the list answers for `filter` (its count=true call), once the list is open. */
function listCount(page: Page, filter: string): Promise<number> {
  return page
    .waitForResponse((r: Response) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/portal-list') && url.searchParams.get('count') === 'true' && (url.searchParams.get('filter') ?? '') === filter && r.ok();
    })
    .then(async (r) => ((await r.json()) as { data: { total: number } }).data.total);
}

/** The filter of a list link. */
async function filterOf(link: Locator): Promise<string> {
  return new URL((await link.getAttribute('href'))!, 'http://portal.invalid').searchParams.get('filter') ?? '';
}

/** A figure's number as a number ("1,234" → 1234). */
async function numberIn(locator: Locator): Promise<number> {
  return Number((await locator.innerText()).replace(/[^\d.]/g, ''));
}

test.describe('dashboards', () => {
  test('Pete’s dashboard shows only his projects, and its figures open lists with the same filter and count', async ({ page }) => {
    test.slow(); // eight screenshots
    const problems = await watchProblems(page);
    await signIn(page, users.pete.email, users.pete.fullName);
    const mine = page.getByTestId('kpi-mine-project');
    await expect(mine.getByTestId('kpi-value')).toBeVisible();
    const count = await numberIn(mine.getByTestId('kpi-value'));
    expect(count).toBeGreaterThan(0);
    const active = page.getByRole('region', { name: 'My active projects' });
    await expect(active.getByTestId('my-project').first()).toBeVisible();
    await screenshots(page, 'dashboard-pete');

    // "View my projects": the project list with the card's filter, the same count, and
    // every row's manager is Pete.
    const link = mine.getByRole('link', { name: 'View my projects' });
    const filter = await filterOf(link);
    expect(filter).toMatch(/^projectmanager eq \d+$/);
    const listed = listCount(page, filter);
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    expect(await listed).toBe(count);
    const table = page.getByRole('table').first();
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
    const column = headers.findIndex((h) => h.startsWith('Project manager'));
    expect(column, JSON.stringify(headers)).toBeGreaterThanOrEqual(0);
    const managers = await table.locator(`tbody tr td:nth-child(${column + 1})`).allInnerTexts();
    expect(managers.length).toBe(Math.min(count, managers.length));
    expect(new Set(managers.map((m) => m.trim()))).toEqual(new Set([users.pete.fullName]));

    // Back on the dashboard, a status of his opens the same kind of list.
    await page.goto('/');
    const byStatus = page.getByTestId('kpi-mine-project').getByRole('list', { name: /by status/ }).getByRole('link').first();
    const statusCount = Number((await byStatus.innerText()).replace(/[^\d]/g, ''));
    const statusFilter = await filterOf(byStatus);
    expect(statusFilter).toMatch(/^projectmanager eq \d+ and entitystatus eq /);
    const statusListed = listCount(page, statusFilter);
    await byStatus.click();
    expect(await statusListed).toBe(statusCount);

    expect(await problems()).toEqual([]);
  });

  test('the accountant sees what is owed and how late, and an aging bucket opens the list with the same filter and count', async ({ page }) => {
    test.slow(); // eight screenshots
    const problems = await watchProblems(page);
    await signIn(page, users.ada.email, users.ada.fullName);
    await userButton(page, users.ada.fullName).click();
    const switched = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/role') && r.request().method() === 'POST');
    // Already on /, the switch reloads the page: the figures are read after it, not from the
    // page it replaces (whose context the reload destroyed under a read, once in CI).
    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('menuitemradio', { name: 'Accountant' }).click();
    expect((await switched).status()).toBe(200);
    await reloaded;
    await page.waitForLoadState('load');
    await expect(page.getByText('You are working as Accountant.')).toBeVisible();

    // What is outstanding, one amount per currency (the demo invoices Canadian clients in CAD).
    const outstanding = page.getByTestId('kpi-invoice-outstanding');
    await expect(outstanding.getByTestId('kpi-value')).toBeVisible();
    const owed = await unitTotals(outstanding.getByTestId('kpi-value'));
    for (const total of owed) expect(total).toMatch(/^\D*\$[\d,]+\.\d\d$/);
    const overdue = page.getByTestId('kpi-invoice-overdue');
    await expect(overdue.getByTestId('kpi-value')).toHaveText(/^[\d,]+$/);
    const aging = page.getByRole('region', { name: 'Receivables aging' });
    const buckets = aging.getByTestId('aging-bucket');
    await expect(buckets.getByRole('link')).toHaveText(['Current', '1–30 days', '31–60 days', '61–90 days', 'Over 90 days']);
    // The buckets add up to what is outstanding, currency by currency.
    const amounts = (await Promise.all((await buckets.getByTestId('aging-amount').all()).map(unitTotals))).flat();
    expectSameSums(sumBySymbol(amounts), sumBySymbol(owed));
    // No projects of the accountant's own, and no capped "at least" figure.
    await expect(page.getByTestId('kpi-mine-project')).toHaveCount(0);
    await expect(page.getByText(/largest|≥/)).toHaveCount(0);
    await screenshots(page, 'dashboard-accountant');

    // The oldest bucket with invoices in it opens the invoice list with its filter; the
    // list counts as many.
    const withInvoices = buckets.filter({ hasNotText: /\b0 invoices\b/ }).last();
    const bucketCount = Number((await withInvoices.innerText()).match(/([\d,]+) invoices?/)![1]!.replace(/,/g, ''));
    const link = withInvoices.getByRole('link');
    const filter = await filterOf(link);
    expect(filter).toMatch(/^amountremaining gt 0 and duedate /);
    const listed = listCount(page, filter);
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
    expect(await listed).toBe(bucketCount);
    expect(new URL(page.url()).searchParams.get('filter')).toBe(filter);
    await expect(page.getByRole('table').first().getByRole('columnheader', { name: /^Due date/ })).toBeVisible();

    expect(await problems()).toEqual([]);
  });
});

test('feedback: problems clear once fixed, the thanks reads naturally, the way back names the page', async ({ page }) => {
  test.slow();
  const problems = await watchProblems(page);
  await signIn(page, users.pete.email, users.pete.fullName);
  await page.goto('/feedback?from=/creditledger/list');
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page.getByText('Choose a category.')).toBeVisible();
  await expect(page.getByText('Write a message.')).toBeVisible();
  await page.getByLabel(/^Category/).selectOption('bug');
  await expect(page.getByText('Choose a category.')).toHaveCount(0);
  await expect(page.getByText('Write a message.')).toBeVisible();
  await page.getByLabel(/^Message/).fill('The credit totals add up the wrong things.');
  await expect(page.getByText('Write a message.')).toHaveCount(0);
  await page.getByLabel(/^Attachment/).setInputFiles({
    name: 'report-view.png',
    mimeType: 'image/png',
    buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  });
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page.getByTestId('feedback-thanks')).toContainText('Thanks — your report “Something is broken” was sent with 1 attachment (report-view.png).');
  const back = page.getByRole('link', { name: 'Back to Credit ledger' });
  await expect(back).toBeVisible();
  await screenshots(page, 'feedback-sent');
  await back.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Credit ledger' })).toBeVisible();
  expect(await problems()).toEqual([]);
});

test('the audit log reads in names: users, roles, records, before → after; a user picked by name; no ERP sync without an ERP', async ({ page, browser }) => {
  test.slow();
  const problems = await watchProblems(page);
  // Pete signs in (a sign-in in his role) and renames a project of his.
  await signIn(page, users.pete.email, users.pete.fullName);
  const project = page.getByRole('region', { name: 'My active projects' }).getByTestId('my-project').first().getByRole('link').first();
  const before = (await project.innerText()).trim();
  await project.click();
  await expect(page.getByRole('heading', { level: 1, name: before, exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  const after = `${before.slice(0, 150)} (audited ${Date.now() % 100000})`;
  await page.getByRole('textbox', { name: 'Project name' }).fill(after);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: after, exact: true })).toBeVisible();

  const admin = await browser.newPage();
  const adminProblems = await watchProblems(admin);
  await signIn(admin, users.ada.email, users.ada.fullName);
  // No ERP is connected: the menu offers no ERP sync page, so nothing asks for it.
  await mainMenu(admin).getByRole('button', { name: 'Admin' }).click();
  await expect(admin.getByRole('menuitem', { name: 'Audit log' })).toBeVisible();
  await expect(admin.getByRole('menuitem', { name: 'ERP sync' })).toHaveCount(0);
  await admin.getByRole('menuitem', { name: 'Audit log' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

  // A user picked by name, not typed as an id.
  await expect(admin.getByLabel('User id')).toHaveCount(0);
  await admin.getByRole('combobox', { name: 'User' }).click();
  await admin.getByRole('option', { name: users.pete.fullName }).click();
  const rows = admin.getByTestId('audit-row');
  await expect(rows.first()).toContainText(users.pete.fullName);
  for (const row of await rows.all()) await expect(row).toContainText(users.pete.fullName);

  // His edit: the record by its name, linked; the field by its label, before → after.
  const edit = rows.filter({ hasText: 'Edited a record' }).first();
  await expect(edit.getByRole('link', { name: after })).toHaveAttribute('href', /\/project\/view\?id=\d+$/);
  await expect(edit).toContainText('Project Manager');
  await expect(edit.getByRole('list', { name: 'Changed fields' })).toContainText(`Project name: ${before} → changed to ${after}`);
  // His sign-in carries its role.
  const signInRow = rows.filter({ hasText: 'Signed in' }).first();
  await expect(signInRow).toContainText('Project Manager');
  await expect(signInRow).toContainText('With email and password');
  await expect(admin.getByRole('table')).not.toContainText('{');
  await screenshots(admin, 'audit-log');
  expect(await problems()).toEqual([]);
  expect(await adminProblems()).toEqual([]);
  await admin.close();
});
