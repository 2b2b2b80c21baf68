import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

/** What the search call answers (SPEC §3 search result). */
interface SearchResult {
  name: string;
  domain: string;
  type: string;
  id: number;
  detail: string;
}

/** The first client of the demo data as its list shows it: its name and view page. */
async function firstClient(page: Page): Promise<{ name: string; href: string }> {
  await page.goto('/customer/list');
  const link = page.getByRole('table', { name: /, page \d+$/ }).locator('tbody tr').first().getByRole('link').first();
  await expect(link).toHaveAttribute('href', /^\/customer\/view\?id=\d+$/);
  return { name: (await link.textContent())!.trim(), href: (await link.getAttribute('href'))! };
}

/** The results of the next answer of the search call (the app asks for them grouped). */
function nextSearch(page: Page): Promise<SearchResult[]> {
  return page
    .waitForResponse((r) => new URL(r.url()).searchParams.get('method') === 'search' && r.ok())
    .then(async (r) => ((await r.json()) as { data: { results: SearchResult[] } }).data.results);
}

test.describe('global search', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('a client found by name opens on its view page in a new tab; the query clears', async ({ page, context }) => {
    const problems = await watchProblems(page);
    const client = await firstClient(page);
    const box = page.getByRole('search').getByRole('combobox', { name: 'Search records' });

    const answer = nextSearch(page);
    await box.fill(client.name);
    expect((await answer).some((r) => r.name === client.name && r.type === 'customer')).toBe(true);
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const results = page.getByRole('listbox', { name: 'Search results' });
    const option = results.getByRole('option', { name: client.name }).first();
    await expect(option).toBeVisible();

    const opened = context.waitForEvent('page');
    await option.click();
    const tab = await opened;
    await tab.waitForLoadState();
    await expect(tab).toHaveURL(/\/customer\/view\?id=\d+$/);
    await expect(tab.getByRole('heading', { level: 1, name: client.name, exact: true })).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(results).toHaveCount(0);
    await tab.close();
    expect(await problems()).toEqual([]);
  });

  test('the keyboard highlights a result and Enter opens it', async ({ page, context }) => {
    const client = await firstClient(page);
    const box = page.getByRole('combobox', { name: 'Search records' });
    const answer = nextSearch(page);
    await box.fill(client.name);
    await answer;
    await expect(page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toBeVisible();
    await box.press('ArrowDown');
    const active = page.locator(`[id="${await box.getAttribute('aria-activedescendant')}"]`);
    await expect(active).toHaveAttribute('aria-selected', 'true');
    const name = (await active.locator('span').first().textContent())!;

    const opened = context.waitForEvent('page');
    await box.press('Enter');
    const tab = await opened;
    await expect(tab.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await tab.close();
  });

  test('a "cus:" prefix narrows the results to clients', async ({ page }) => {
    const client = await firstClient(page);
    const word = client.name.split(/\s+/).find((w) => w.length >= 4) ?? client.name;
    const box = page.getByRole('combobox', { name: 'Search records' });

    const answer = nextSearch(page);
    await box.fill(`cus: ${word}`);
    const found = await answer;
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((r) => r.type))).toEqual(new Set(['customer']));
    // One group, the clients, with its count; its results, then "See all clients".
    const group = page.getByRole('listbox', { name: 'Search results' }).getByRole('group');
    await expect(group).toHaveCount(1);
    await expect(group).toHaveAttribute('aria-label', /^Clients · \d+\+?$/);
    const options = group.getByRole('option');
    await expect(options).toHaveCount(found.length + 1);
    await expect(options.last()).toHaveText(/^See all clients\d+\+? found$/);
    for (const detail of (await options.locator('span:nth-child(2)').allTextContents()).slice(0, -1)) expect(detail).toMatch(/^Client\b/);
    await page.screenshot({ path: `${ARTIFACTS}/search-results.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(options.first()).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/search-results-390.png` });
  });

  test('Ctrl+K opens the command palette: menu entries go there in-app, records search too', async ({ page }) => {
    const problems = await watchProblems(page);
    // The navbar (and its shortcut) comes in its own chunk, after the page.
    const box = page.getByRole('combobox', { name: 'Search records' });
    await expect(box).toBeVisible();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox', { name: 'Search records and pages' });
    await expect(input).toBeFocused();
    await input.fill('vendor bills');
    const goTo = palette.getByRole('group', { name: 'Go to' });
    await expect(goTo.getByRole('option')).toHaveText(['Vendor billsFinance']);
    await input.press('ArrowDown');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/vendorbill\/list$/);
    await expect(palette).toBeHidden();

    const client = await firstClient(page);
    await expect(box).toBeVisible();
    await page.keyboard.press('Control+k');
    const answer = nextSearch(page);
    await input.fill(client.name);
    await answer;
    await expect(palette.getByRole('group', { name: /^Clients · / }).getByRole('option', { name: client.name }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    expect(await problems()).toEqual([]);
  });
});
