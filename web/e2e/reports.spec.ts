import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

/** The chart's drawing (not its legend's icons), inside `scope`. */
function chartSvg(scope: Page | Locator) {
  return scope.getByTestId('report-chart').locator('.recharts-wrapper > svg');
}

test.describe('reports', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('build a grouped report with a bar chart, export it, reopen it, find it in the audit log', async ({ page }) => {
    test.slow(); // five pages and a download: past 30 s on a busy machine
    const problems = await watchProblems(page);
    const name = `Projects by status ${Date.now()}`;

    await page.goto('/reports/list');
    await page.getByRole('link', { name: 'New report' }).click();
    await expect(page).toHaveURL(/\/reports\/create$/);
    await expect(page.getByLabel('Records', { exact: true })).toHaveValue('project');
    await page.getByLabel(/^Name/).fill(name);
    await page.getByLabel('Group by', { exact: true }).selectOption({ label: 'Status' });
    await expect(page.getByLabel('Aggregate 1', { exact: true })).toHaveValue('count');
    await page.getByRole('button', { name: 'Add aggregate' }).click();
    await expect(page.getByLabel('Aggregate 2', { exact: true })).toHaveValue('sum');
    await expect(page.getByLabel('Aggregate 2 field', { exact: true })).toHaveValue('projectedtotal');
    await expect(page.getByLabel('Chart', { exact: true })).toHaveValue('bar');

    // The live preview: a chart and its table.
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(chartSvg(preview)).toBeVisible();
    await expect(preview.getByRole('columnheader', { name: 'Sum of Contract value' })).toBeVisible();

    await page.getByRole('button', { name: 'Save report' }).click();
    await expect(page).toHaveURL(/\/reports\/report-[0-9a-f]+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(chartSvg(page)).toBeVisible();
    await expect(chartSvg(page).locator('.recharts-bar-rectangle').first()).toBeVisible();
    const table = page.getByRole('table', { name });
    for (const header of ['Status', 'Count', 'Sum of Contract value']) await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await page.screenshot({ path: `${ARTIFACTS}/report-bar-chart.png`, fullPage: true });
    await page.screenshot({ path: '/tmp/report-bar-chart.png', fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split(/\r?\n/)[0]).toBe('\ufeffStatus,Count,Sum of Contract value,Currency');
    expect(download.suggestedFilename()).toMatch(/\.csv$/);

    // Reopen it from the list.
    await page.goto('/reports/list');
    const row = page.getByTestId('report-row').filter({ hasText: name });
    await expect(row).toContainText('Bar chart');
    await row.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(chartSvg(page)).toBeVisible();

    // The save is in the audit log.
    await page.goto('/audit');
    await page.getByLabel('Event', { exact: true }).selectOption('report_save');
    await expect(page.getByTestId('audit-row').filter({ hasText: name }).first()).toContainText('Saved a report');

    expect(await problems()).toEqual([]);
  });
});
