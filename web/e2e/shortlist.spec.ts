import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

/** The `n`-th project of the project list: its name and view page. */
async function project(page: Page, n: number): Promise<{ name: string; href: string }> {
  await page.goto('/project/list');
  const link = page.getByRole('table', { name: /, page \d+$/ }).locator('tbody tr').nth(n).getByRole('link').first();
  await expect(link).toHaveAttribute('href', /^\/project\/view\?id=\d+$/, { timeout: 30_000 });
  return { name: (await link.textContent())!.trim(), href: (await link.getAttribute('href'))! };
}

/** Opens a record's page and waits until the server has recorded the visit. */
async function visit(page: Page, href: string, name: string): Promise<void> {
  const recorded = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/me/recent');
  await page.goto(href);
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  expect((await recorded).status()).toBe(204);
}

async function openPalette(page: Page) {
  await expect(page.getByRole('combobox', { name: 'Search records' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('combobox', { name: 'Search records and pages' })).toBeFocused();
  return palette;
}

test.describe('recent records and favourites', () => {
  // Each walks several pages (sign-in, a list, record pages, the dashboard, the palette).
  test.beforeEach(() => test.slow());

  test('a favourite: starred on its page, kept on the server, listed on the dashboard and in the palette', async ({ page }) => {
    const problems = await watchProblems(page);
    await signIn(page, users.pete.email, users.pete.fullName);
    const p = await project(page, 0);
    await visit(page, p.href, p.name);

    const star = page.getByRole('button', { name: 'Favourite', exact: true });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === '/api/v1/me/favourites');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    expect((await saved).status()).toBe(204);
    for (const [width, suffix] of [
      [1280, ''],
      [390, '-390'],
    ] as const) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}/shortlist-favourite${suffix}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Stored on the server: still starred after a reload.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Favourite', exact: true })).toHaveAttribute('aria-pressed', 'true');

    // On the dashboard, named and linked.
    await page.goto('/');
    const favourites = page.getByRole('region', { name: 'Favourites' });
    await expect(favourites.getByRole('link', { name: p.name, exact: true })).toHaveAttribute('href', p.href);

    // In the command palette with nothing typed; Enter opens it in the app.
    const palette = await openPalette(page);
    const group = palette.getByRole('group', { name: 'Favourites' });
    await expect(group.getByRole('option').first()).toContainText(p.name);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(p.href);
    await expect(palette).toBeHidden();

    // Unstarred: gone from the dashboard.
    await page.getByRole('button', { name: 'Favourite', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Favourite', exact: true })).toHaveAttribute('aria-pressed', 'false');
    await page.goto('/');
    await expect(favourites.getByText(/No favourites yet/)).toBeVisible();
    expect(await problems()).toEqual([]);
  });

  test('recent records: the last opened first, on the dashboard and in the palette', async ({ page }) => {
    const problems = await watchProblems(page);
    await signIn(page, users.ada.email, users.ada.fullName);
    const first = await project(page, 1);
    const second = await project(page, 2);
    await visit(page, first.href, first.name);
    await visit(page, second.href, second.name);

    await page.goto('/');
    const recent = page.getByRole('region', { name: 'Recent records' });
    // The last opened before the one opened before it (other tests may open records too).
    const links = recent.getByRole('link');
    await expect(links.filter({ hasText: second.name }).first()).toHaveAttribute('href', second.href);
    const names = await links.allTextContents();
    expect(names.indexOf(second.name)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(second.name)).toBeLessThan(names.indexOf(first.name));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, suffix] of [
        [1280, ''],
        [390, '-390'],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `no horizontal scrolling at ${width}px (${scheme})`).toBeLessThanOrEqual(0);
        await recent.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${ARTIFACTS}/shortlist-dashboard-${scheme}${suffix}.png`, fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    const palette = await openPalette(page);
    const options = palette.getByRole('group', { name: 'Recent' }).getByRole('option');
    await expect(options.filter({ hasText: second.name }).first()).toBeVisible();
    const shown = await options.locator('span:first-child').allTextContents();
    expect(shown.indexOf(second.name)).toBeGreaterThanOrEqual(0);
    expect(shown.indexOf(second.name)).toBeLessThan(shown.indexOf(first.name));
    await page.screenshot({ path: `${ARTIFACTS}/shortlist-palette.png` });
    await page.keyboard.press('Escape');
    expect(await problems()).toEqual([]);
  });

  test('search results grouped by kind, each with its count; "See all" opens the list filtered by the text', async ({ page }) => {
    const problems = await watchProblems(page);
    await signIn(page, users.ada.email, users.ada.fullName);
    const p = await project(page, 0);
    // A word of the project's name long enough to open the results (6 characters), else the name.
    const text = p.name.split(/\s+/).find((w) => w.length >= 6) ?? p.name;

    const box = page.getByRole('search').getByRole('combobox', { name: 'Search records' });
    const answered = page.waitForResponse((r) => new URL(r.url()).searchParams.get('groups') === 'true' && r.ok());
    await box.fill(text);
    await answered;
    const results = page.getByRole('listbox', { name: 'Search results' });
    const projects = results.getByRole('group', { name: /^Projects · \d+\+?$/ });
    await expect(projects).toBeVisible();
    const label = (await projects.getAttribute('aria-label'))!;
    const count = label.replace(/^Projects · /, '');
    const seeAll = projects.getByRole('option', { name: /^See all projects/ });
    await expect(seeAll).toContainText(`${count} found`);
    for (const [width, suffix] of [
      [1280, ''],
      [390, '-390'],
    ] as const) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}/shortlist-grouped-search${suffix}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The keyboard reaches "See all": down the options until it is the highlighted one.
    const target = (await seeAll.getAttribute('id'))!;
    const total = await results.getByRole('option').count();
    for (let i = 0; i < total && (await box.getAttribute('aria-activedescendant')) !== target; i++) await box.press('ArrowDown');
    await expect(seeAll).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');

    // The kind's whole list, filtered by the same text, showing as many as the group said.
    await expect(page).toHaveURL(/\/project\/list\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('q')).toBe(text);
    expect(url.searchParams.get('list')).toBe('customsearch_res_project_list');
    await expect(page.getByRole('searchbox', { name: 'Search projects' })).toHaveValue(text);
    await expect(box).toHaveValue('');
    if (!count.endsWith('+')) {
      const n = Number(count.replace(/,/g, ''));
      await expect(page.getByTestId('list-total')).toHaveText(`${n.toLocaleString('en-US')} ${n === 1 ? 'record' : 'records'}`);
    }
    await expect(page.getByRole('table', { name: /, page \d+$/ }).getByRole('link', { name: p.name, exact: true })).toBeVisible();
    expect(await problems()).toEqual([]);
  });
});
