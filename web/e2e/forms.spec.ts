import { expect, test, type Page } from '@playwright/test';
import { signIn, users, watchProblems } from './support';

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/** The app's alert (success messages are a polite status, failures an alert). */
function appAlert(page: Page) {
  return page.getByTestId('alert-area').getByRole('status').or(page.getByTestId('alert-area').getByRole('alert'));
}

/** Opens the edit page of the first project of the list; answers its name. */
async function editFirstProject(page: Page): Promise<string> {
  await page.goto('/project/list');
  const link = listTable(page).locator('tbody tr').first().getByRole('link').first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(/\/project\/edit\?id=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: `Edit ${name}` })).toBeVisible();
  return name;
}

test.describe('create and edit forms', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('a new client: created from its list, shown on its view page, in the list and in global search', async ({ page }) => {
    const problems = await watchProblems(page);
    const name = `Quillfeather Marsh Trust ${Date.now() % 100000}`;
    await page.goto('/customer/list');
    await page.getByRole('link', { name: 'New client' }).click();
    await expect(page).toHaveURL(/\/customer\/create$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New client' })).toBeVisible();
    await page.screenshot({ path: '/tmp/portico-form-create.png', fullPage: true });

    await page.getByRole('textbox', { name: 'Client name' }).fill(name);
    await page.getByRole('textbox', { name: 'Client ID' }).fill('CUS-E2E');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('Prospect');
    await page.getByRole('textbox', { name: 'Balance' }).fill('1234.5');
    await page.getByLabel('Client since').fill('2026-11-22');
    await page.getByRole('button', { name: 'Create client' }).click();

    await expect(page).toHaveURL(/\/customer\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await expect(appAlert(page)).toContainText(`“${name}” is created.`);
    const facts = page.getByLabel('Key facts');
    await expect(facts).toContainText('CUS-E2E');
    await expect(facts).toContainText('$1,234.50');
    await expect(facts).toContainText('Nov 22, 2026');
    const viewUrl = new URL(page.url());

    // In the client list, found by its list search.
    await page.goto('/customer/list');
    await page.getByRole('searchbox', { name: 'Search clients' }).fill(name);
    await expect(listTable(page).getByRole('link', { name, exact: true })).toHaveAttribute('href', viewUrl.pathname + viewUrl.search);

    // In global search (6+ characters open the panel; the call waits 1000 ms).
    const box = page.getByRole('search').getByRole('combobox', { name: 'Search records' });
    await box.fill(name);
    await expect(page.getByRole('listbox', { name: 'Search results' }).getByRole('option', { name })).toBeVisible();
    expect(await problems()).toEqual([]);
  });

  test('a project edited: the new name shows, and its history tab lists the edit', async ({ page }) => {
    const problems = await watchProblems(page);
    const before = await editFirstProject(page);
    const after = `${before.slice(0, 150)} (renamed ${Date.now() % 100000})`;
    const nameBox = page.getByRole('textbox', { name: 'Project name' });
    await expect(nameBox).toHaveValue(before);
    await nameBox.fill(after);
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: after, exact: true })).toBeVisible();
    await expect(appAlert(page)).toContainText('Project saved');

    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'History' }).click();
    const history = page.getByTestId('record-tab').getByRole('table');
    const latest = history.locator('tbody tr').first();
    await expect(latest).toContainText('Edited');
    await expect(latest).toContainText(users.ada.fullName);
    await expect(latest).toContainText(`Project name: ${before} → ${after}`);
    expect(await problems()).toEqual([]);
  });

  test('a wrong value shows under its field and keeps the rest of the input; leaving asks first', async ({ page }) => {
    const problems = await watchProblems(page);
    const before = await editFirstProject(page);
    let saves = 0;
    page.on('request', (r) => {
      if (r.url().includes('-crud')) saves += 1;
    });
    const nameBox = page.getByRole('textbox', { name: 'Project name' });
    await nameBox.fill('');
    await page.getByRole('textbox', { name: 'Project ID' }).fill('PRJ-KEPT');
    await page.getByRole('textbox', { name: 'Contract value' }).fill('98000.25');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page.getByText('Project name is required.')).toBeVisible();
    await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
    await expect(nameBox).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Project ID' })).toHaveValue('PRJ-KEPT');
    await expect(page.getByRole('textbox', { name: 'Contract value' })).toHaveValue('$98,000.25');
    await page.screenshot({ path: '/tmp/portico-form-errors.png', fullPage: true });
    expect(saves).toBe(0);

    // Leaving with the changes asks; Stay keeps them, Leave drops them.
    await page.getByRole('link', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Project ID' })).toHaveValue('PRJ-KEPT');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: before, exact: true })).toBeVisible();
    expect(saves).toBe(0);
    expect(await problems()).toEqual([]);
  });
});
