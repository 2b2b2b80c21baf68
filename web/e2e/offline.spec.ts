import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, runAxe, signIn, users, watchProblems } from './support';

// The installable app offline (issue 38, field use): the service worker keeps the shell,
// the device keeps copies of what was opened and the changes saved without a network.
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker has the build's files, controls the page and keeps its shell. */
async function shellKept(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  // The page's shell is kept (sw.js: by the first navigation it answers, or at activation).
  await expect.poll(() => page.evaluate(async () => (await caches.match('/', { cacheName: 'portico-page' })) !== undefined)).toBe(true);
}

/** How many copies the device keeps for the signed-in user (IndexedDB "portico", store "copies"). */
function keptCopies(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('portico');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('copies').objectStore('copies').count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

test('offline: a record opened lately reloads from the device with its age, and a change saved offline reaches the server once', async ({ page, context }) => {
  test.setTimeout(90_000);
  const problems = await watchProblems(page, [/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, /ERR_INTERNET_DISCONNECTED/, /Failed to fetch/]);
  await signIn(page, users.ada.email, users.ada.fullName);
  // A project no other test opens or edits (they take the first rows by name, A to Z, and
  // run beside this one): another test's save of the same record would make this one's
  // offline change a conflict.
  await page.goto('/project/list?size=25&sort=companyname&dir=desc');
  const row = page.getByRole('table', { name: /, page \d+$/ }).locator('tbody tr').nth(2);
  const link = row.locator('td[data-title] a');
  const name = (await link.innerText()).trim();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const recordUrl = page.url();
  await shellKept(page);
  await expect.poll(() => keptCopies(page)).toBeGreaterThan(2);

  // Offline, the page reloads: the shell from the service worker, the record from the device.
  await context.setOffline(true);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const note = page.getByTestId('device-copy');
  await expect(note).toContainText('You are offline: this project is the copy kept on this device');
  await expect(note.locator('time')).toHaveText(/just now|minute/);
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible();

  // An edit saved offline is kept on the device, with its state in view.
  const crud: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('-crud') && r.method() === 'PUT') crud.push(r.headers()['idempotency-key'] ?? '');
  });
  await page.getByRole('main').getByRole('link', { name: 'Edit', exact: true }).click();
  const title = page.getByRole('textbox', { name: /^Project name/ });
  const renamed = `${name} (site visit)`;
  await title.fill(renamed);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(recordUrl);
  const kept = page.getByTestId('kept-changes');
  await expect(kept).toContainText('Kept on this device: 1 change waiting for the connection.');
  await expect(kept.getByRole('listitem')).toContainText(`Project “${name}”`);
  await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'kept on this device and sent when the connection is back' }).first()).toBeVisible();
  expect(crud).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect((await runAxe(page)).violations, `axe, ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${ARTIFACTS}/offline-kept-change-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${ARTIFACTS}/offline-kept-change-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back online: sent once, with its key, and the record has it.
  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: /Your change kept on this device is saved/ }).or(page.getByRole('alert').filter({ hasText: /Your change kept on this device is saved/ })).first()).toBeVisible({ timeout: 15_000 });
  await expect(kept.getByRole('listitem')).toHaveCount(0);
  expect(crud).toHaveLength(1);
  expect(crud[0]).toMatch(/^[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(page.getByTestId('device-copy')).toHaveCount(0);
  expect(crud).toHaveLength(1);
  expect(await problems()).toEqual([]);
});

test('offline: a page not opened lately says there is no copy of it', async ({ page, context }) => {
  await signIn(page, users.ada.email, users.ada.fullName);
  await page.goto('/project/list?size=25');
  await expect(page.getByRole('table', { name: /, page \d+$/ })).toBeVisible();
  await shellKept(page);
  await context.setOffline(true);
  await page.goto('/invoice/list');
  await expect(page.getByTestId('no-device-copy')).toContainText('was not opened on this device lately');
  expect((await runAxe(page)).violations).toEqual([]);
});
