import { expect, test } from '@playwright/test';
import { cookie, mainMenu, recordStatus, signIn, userButton, users } from './support';

// Runs against the second server (playwright.config.ts, project "keepalive"), whose access
// tokens live 1 minute, the shortest the server accepts: the app must refresh them ahead of
// time (SPEC §9), so a session outlives several tokens without a single 511.
const TOKEN_LIFE_MS = 60_000;

test('with 1-minute access tokens the session stays signed in across several expiries', async ({ page, request }) => {
  test.setTimeout(3 * 60_000);
  const seen511 = recordStatus(page, 511);
  const refreshes: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/v1/auth/refresh') && r.status() === 200) refreshes.push(Date.now());
  });

  await signIn(page, users.ada.email, users.ada.fullName);
  const started = Date.now();
  const firstToken = await cookie(page, 'token');
  expect(firstToken).toBeTruthy();

  // Use the app every 30 s, half-way between the refreshes (they fall due at half the
  // token's life, 30 s): a role switch (POST /auth/role, then a full reload on /, which
  // restores the session and loads the menu), alternating roles.
  const roles = ['Project Manager', 'Administrator', 'Project Manager'];
  const tokens = new Set([firstToken]);
  for (let i = 0; i < roles.length; i++) {
    await page.waitForTimeout(started + TOKEN_LIFE_MS / 4 + (i * TOKEN_LIFE_MS) / 2 - Date.now());
    await userButton(page, users.ada.fullName).click();
    await page.getByRole('menuitemradio', { name: roles[i] }).click();
    await expect(userButton(page, users.ada.fullName)).toContainText(roles[i]!);
    await expect(mainMenu(page)).toBeVisible();
    tokens.add(await cookie(page, 'token'));
  }

  // Past the second token's expiry as well.
  await page.waitForTimeout(started + TOKEN_LIFE_MS + (TOKEN_LIFE_MS * 5) / 8 - Date.now());
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, users.ada.fullName)).toContainText('Project Manager');
  tokens.add(await cookie(page, 'token'));

  expect(seen511.map((r) => r.url())).toEqual([]);
  expect(page.url()).not.toContain('/login');
  expect(refreshes.length, 'refreshes, one per half token life').toBeGreaterThanOrEqual(3);
  // Proactive: the first refresh came on its own, at half the token's life (30 s), while
  // nothing else happened (the app was used at 15 s and 45 s).
  const first = refreshes[0]! - started;
  expect(first, 'first refresh, ms after sign-in').toBeGreaterThan(25_000);
  expect(first, 'first refresh, ms after sign-in').toBeLessThan(40_000);
  expect(tokens.size).toBeGreaterThanOrEqual(3);

  // The first two tokens really expired meanwhile: the server refuses them now.
  for (const old of [...tokens].slice(0, 2)) {
    const me = await request.get('/api/v1/auth/me', { headers: { Authorization: `Bearer ${old}`, 'X-Role-Id': '1001' } });
    expect(me.status()).toBe(511);
  }
  // While the session goes on with the current one.
  const current = await cookie(page, 'token');
  const ok = await request.get('/api/v1/auth/me', { headers: { Authorization: `Bearer ${current}`, 'X-Role-Id': '1002' } });
  expect(ok.status()).toBe(200);
});
