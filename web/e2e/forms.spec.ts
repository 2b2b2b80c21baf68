import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

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
    // Several pages and a save each: past 30 s on a busy machine.
    test.slow();
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

    // The system's fields are not typed on a create: the id, the balance, the date it was made.
    for (const system of ['Client ID', 'Balance', 'Client since']) await expect(page.getByLabel(system)).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Client name' }).fill(name);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('Prospect');
    await page.getByRole('textbox', { name: 'Email' }).fill('accounts@quillfeather.example');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+1 919 555 0142');
    await page.getByRole('textbox', { name: 'Website' }).fill('https://quillfeather.example');
    await page.getByRole('button', { name: 'Create client' }).click();

    await expect(page).toHaveURL(/\/customer\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await expect(appAlert(page)).toContainText(`“${name}” is created.`);
    // The portal numbers it like the other clients (the number stands beside the list's name, above the title).
    await expect(page.getByRole('main').getByRole('paragraph').first()).toHaveText(/^Clients \/ CUS-\d{5}$/);
    await expect(page.getByText('accounts@quillfeather.example')).toBeVisible();
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
    await page.getByRole('textbox', { name: 'Permit number' }).fill('PERMIT-KEPT');
    await page.getByRole('textbox', { name: 'Contract value' }).fill('98000.25');
    await page.getByRole('textbox', { name: '% complete' }).fill('140');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page.getByText('Project name is required.')).toBeVisible();
    await expect(page.getByText('Enter a percentage from 0 to 100.')).toBeVisible();
    await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
    await expect(nameBox).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Permit number' })).toHaveValue('PERMIT-KEPT');
    await expect(page.getByRole('textbox', { name: 'Contract value' })).toHaveValue('$98,000.25');
    await page.screenshot({ path: '/tmp/portico-form-errors.png', fullPage: true });
    expect(saves).toBe(0);

    // Leaving with the changes asks; Stay keeps them, Leave drops them.
    await page.getByRole('link', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Permit number' })).toHaveValue('PERMIT-KEPT');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: before, exact: true })).toBeVisible();
    expect(saves).toBe(0);
    expect(await problems()).toEqual([]);
  });

  test("a project's manager and % complete are edited; its system fields are shown, not editable", async ({ page }) => {
    const problems = await watchProblems(page);
    await editFirstProject(page);
    const id = page.getByRole('textbox', { name: 'Project ID' });
    await expect(id).toHaveValue(/^PRJ-\d+$/);
    await expect(id).not.toBeEditable();
    await expect(page.getByRole('textbox', { name: 'Currency' })).not.toBeEditable();
    await page.screenshot({ path: `${ARTIFACTS}/form-edit-project-1280.png`, fullPage: true });

    const manager = page.getByRole('combobox', { name: 'Project manager' });
    await manager.fill(users.pete.fullName);
    await page.getByRole('listbox', { name: 'Project manager: matching records' }).getByRole('option', { name: users.pete.fullName }).first().click();
    await expect(manager).toHaveValue(users.pete.fullName);
    const percent = page.getByRole('textbox', { name: '% complete' });
    await percent.fill('45.5');
    await page.getByLabel('Projected end').fill('2027-03-31');
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('-crud') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const sent = (await saved).request().postDataJSON() as { fields: Record<string, unknown> };
    expect(sent.fields).toMatchObject({ projectmanager: 2, percentcomplete: 45.5, projectedenddate: '2027-03-31' });
    expect(sent.fields).not.toHaveProperty('entityid');

    await expect(page).toHaveURL(/\/project\/view\?id=\d+$/);
    await expect(appAlert(page)).toContainText('Project saved');
    await expect(page.getByText(users.pete.fullName).first()).toBeVisible();
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'History' }).click();
    const latest = page.getByTestId('record-tab').getByRole('table').locator('tbody tr').first();
    await expect(latest).toContainText('% complete:');
    await expect(latest).toContainText('45.5');
    await expect(latest).toContainText(`Project manager:`);
    expect(await problems()).toEqual([]);
  });

  test('an unchanged form is not saved and says so', async ({ page }) => {
    const problems = await watchProblems(page);
    await editFirstProject(page);
    let saves = 0;
    page.on('request', (r) => {
      if (r.url().includes('-crud')) saves += 1;
    });
    const save = page.getByRole('button', { name: 'Save changes' });
    await expect(save).toBeDisabled();
    await expect(page.getByText('No changes to save')).toBeVisible();
    // A change undone is no change: still nothing to save, and Enter sends nothing.
    const permit = page.getByRole('textbox', { name: 'Permit number' });
    const before = await permit.inputValue();
    await permit.fill(`${before}X`);
    await expect(save).toBeEnabled();
    await permit.fill(before);
    await expect(save).toBeDisabled();
    await permit.press('Enter');
    await page.waitForTimeout(300);
    expect(saves).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/form-unchanged-1280.png`, fullPage: true });
    expect(await problems()).toEqual([]);
  });

  test('a note added and a file uploaded on a project', async ({ page }) => {
    const problems = await watchProblems(page);
    await page.goto('/project/list');
    await listTable(page).locator('tbody tr').first().getByRole('link').first().click();
    const sections = page.getByRole('navigation', { name: 'Project sections' });

    // A note: added to the Notes tab, signed by its author; the box empties.
    await sections.getByRole('link', { name: 'Notes' }).click();
    const note = `Walked the north reach ${Date.now() % 100000}.\nCulverts clear; two stakes replaced.`;
    const box = page.getByRole('textbox', { name: 'New note' });
    await box.fill(note);
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByText('Note added.')).toBeVisible();
    await expect(box).toHaveValue('');
    const row = page.getByTestId('record-tab').getByRole('table').locator('tbody tr').filter({ hasText: 'Walked the north reach' });
    await expect(row).toContainText(users.ada.fullName);
    // Its line break shows as one.
    expect(await row.getByText('Culverts clear').evaluate((el) => [getComputedStyle(el).whiteSpace, (el as HTMLElement).innerText])).toEqual([
      'pre-line',
      note,
    ]);
    await page.screenshot({ path: `${ARTIFACTS}/record-notes-1280.png`, fullPage: true });

    // A file of a type that cannot be attached is refused before it is sent, and kept.
    await sections.getByRole('link', { name: 'Files' }).click();
    const chooser = page.getByTestId('record-tab').locator('input[type="file"]');
    await chooser.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await expect(page.getByText(/tool\.exe cannot be attached/)).toBeVisible();

    // A PDF: uploaded, then listed and downloadable as sent.
    const name = `survey-${Date.now() % 100000}.pdf`;
    const content = Buffer.from('%PDF-1.4\n% field survey\n');
    await chooser.setInputFiles({ name, mimeType: 'application/pdf', buffer: content });
    await page.getByRole('button', { name: 'Upload file' }).click();
    await expect(page.getByText(`${name} is attached.`)).toBeVisible();
    const download = page.getByRole('button', { name: `Download ${name}` });
    await expect(download).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/record-files-1280.png`, fullPage: true });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(name);

    // The history names both.
    await sections.getByRole('link', { name: 'History' }).click();
    const history = page.getByTestId('record-tab').getByRole('table');
    await expect(history).toContainText('Added a note');
    await expect(history).toContainText('Attached a file');
    expect(await problems()).toEqual([]);
  });
});

test.describe('forms on a phone and in the dark', () => {
  test('the edit form, notes and files at 390 px, light and dark', async ({ page }) => {
    test.slow(); // twelve screenshots of full pages
    await signIn(page, users.ada.email, users.ada.fullName);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await editFirstProject(page);
      await page.screenshot({ path: `${ARTIFACTS}/form-edit-project-1280-${scheme}.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}/form-edit-project-390-${scheme}.png`, fullPage: true });
      await page.getByRole('link', { name: 'Cancel' }).click();
      const sections = page.getByRole('navigation', { name: 'Project sections' });
      await sections.getByRole('link', { name: 'Notes' }).click();
      await expect(page.getByRole('textbox', { name: 'New note' })).toBeVisible();
      await page.screenshot({ path: `${ARTIFACTS}/record-notes-390-${scheme}.png`, fullPage: true });
      await sections.getByRole('link', { name: 'Files' }).click();
      await expect(page.getByRole('button', { name: 'Upload file' })).toBeVisible();
      await page.screenshot({ path: `${ARTIFACTS}/record-files-390-${scheme}.png`, fullPage: true });
    }
  });
});
