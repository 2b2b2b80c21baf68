import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, watchProblems } from './support';

async function expectSignInForm(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Portico' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Portico logo' })).toBeVisible();
  const email = page.getByLabel(/^Email/);
  await expect(email).toBeVisible();
  await expect(email).toHaveAttribute('type', 'email');
  const password = page.getByLabel(/^Password/);
  await expect(password).toBeVisible();
  await expect(password).toHaveAttribute('type', 'password');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with work account' })).toBeVisible();
}

test('an unauthenticated visit to / lands on the sign-in form', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
  await expectSignInForm(page);
  await expect(page).toHaveTitle(/Sign in/);
  await page.screenshot({ path: `${ARTIFACTS}/login.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectSignInForm(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 390px').toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${ARTIFACTS}/login-mobile.png`, fullPage: true });
});

test('an unknown path goes to /404', async ({ page }) => {
  await page.goto('/no/such/page?x=1');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  await page.screenshot({ path: `${ARTIFACTS}/not-found.png`, fullPage: true });
});

test('no console errors and no CSP violations while using the public pages', async ({ page }) => {
  // The browser logs the identity service's refusal of the unknown account below.
  const problems = await watchProblems(page, [/Failed to load resource: the server responded with a status of 400/]);

  await page.goto('/');
  await expectSignInForm(page);

  // Client-side validation.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Enter your email address')).toBeVisible();
  await expect(page.getByLabel(/^Email/)).toBeFocused();
  await page.getByLabel(/^Email/).fill('nobody@portico.test');
  await page.getByLabel(/^Password/).fill('secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The identity service refuses; its error code is shown as a sentence, inline.
  await expect(page.getByRole('alert')).toContainText('There is no account with that email address.');
  await page.screenshot({ path: `${ARTIFACTS}/login-error.png`, fullPage: true });

  // Keyboard focus shows a ring.
  await page.getByLabel(/^Email/).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');

  // In-app navigation to an unknown page and back.
  await page.goto('/missing');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);

  expect(await problems()).toEqual([]);

  // Mantine's injected <style> elements carry the page's nonce.
  const nonces = await page.evaluate(() => Array.from(document.querySelectorAll('style')).map((s) => s.nonce));
  expect(nonces.length).toBeGreaterThan(0);
  for (const nonce of nonces) expect(nonce).not.toBe('');
});

test('the app shell is served with a strict Content-Security-Policy', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/html/);

  const csp = response.headers()['content-security-policy'];
  expect(csp, 'Content-Security-Policy header').toBeTruthy();
  const directives = new Map(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  );
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src');
  expect(scriptSrc, 'script-src (or default-src)').toBeDefined();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");

  // The server filled the head marker with the nonce and the config block.
  const html = await response.text();
  expect(html).not.toContain('<!--portico:head-->');
  const nonce = /<meta name="csp-nonce" content="([^"]+)"/.exec(html)?.[1];
  expect(nonce, 'csp-nonce meta').toBeTruthy();
  expect(directives.get('style-src') ?? []).toContain(`'nonce-${nonce}'`);
  expect(html).toMatch(/<script type="application\/json" id="portico-config">\{.*"productName"/);
});
