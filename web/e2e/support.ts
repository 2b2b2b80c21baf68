import axe from 'axe-core';
import { expect, type APIRequestContext, type Locator, type Page, type Response } from '@playwright/test';

/** Screenshots for people to look at (kept by `make test-e2e`). */
export const ARTIFACTS = 'test-results/artifacts';

/** The Firebase Auth Emulator the suite runs against (scripts/with-emulator.sh). */
export const EMULATOR = `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'}`;
export const PROJECT = 'demo-portal';
export const TENANT = 'portico-demo';
export const PASSWORD = 'portico-demo';

/** The demo accounts (internal/demo/access.yaml). */
export const users = {
  ada: { email: 'ada.admin@portico.test', fullName: 'Ada Admin' },
  pete: { email: 'pete.pm@portico.test', fullName: 'Pete Manager' },
  sam: { email: 'sam.sso@portico.test', fullName: 'Sam Single' },
  lou: { email: 'lou.nolayout@portico.test', fullName: 'Lou Layout' },
  nora: { email: 'nora.noroles@portico.test', fullName: 'Nora Noroles' },
} as const;

/** Collects console errors, uncaught page errors and CSP violations while a test runs. */
export async function watchProblems(page: Page, ignore: RegExp[] = []): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !ignore.some((re) => re.test(message.text()))) problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  return async () => {
    const violations = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
    return [...problems, ...violations.map((v) => `CSP violation: ${v}`)];
  };
}

/** Records every API answer with the given status (e.g. 511) while the page lives. */
export function recordStatus(page: Page, status: number): Response[] {
  const seen: Response[] = [];
  page.on('response', (response) => {
    if (response.status() === status && response.url().includes('/api/')) seen.push(response);
  });
  return seen;
}

export function signInForm(page: Page) {
  return {
    email: page.getByLabel(/^Email/),
    password: page.getByLabel(/^Password/),
    submit: page.getByRole('button', { name: 'Sign in', exact: true }),
    workAccount: page.getByRole('button', { name: 'Sign in with work account' }),
  };
}

/** Fills and submits the email + password form (the page must show it). */
export async function submitPassword(page: Page, email: string, password = PASSWORD): Promise<void> {
  const form = signInForm(page);
  await form.email.fill(email);
  await form.password.fill(password);
  await form.submit.click();
}

/** The user menu button, named by what it shows: the user's full name, then the current role. */
export function userButton(page: Page, fullName: string) {
  const name = new RegExp(`^${fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`);
  return page.getByRole('banner').getByRole('button', { name });
}

/** Opens the user menu of the header and returns it. */
export async function openUserMenu(page: Page, fullName: string) {
  await userButton(page, fullName).click();
  const menu = page.getByRole('menu', { name: fullName, exact: true });
  await expect(menu).toBeVisible();
  return menu;
}

/** Signs in from /login and waits for the dashboard. */
export async function signIn(page: Page, email: string, fullName: string, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await submitPassword(page, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(userButton(page, fullName)).toBeVisible();
}

/** The category menu of the navbar. */
export function mainMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Main menu' });
}

/** The value of one of the page's cookies. */
export async function cookie(page: Page, name: string): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  const found = cookies.find((c) => c.name === name)?.value;
  return found === undefined ? undefined : decodeURIComponent(found);
}

interface OobCode {
  email: string;
  requestType: string;
  oobCode: string;
  oobLink: string;
}

/** The newest out-of-band code the emulator "sent" to `email` (no real email leaves). */
export async function latestOobCode(request: APIRequestContext, email: string, requestType: 'PASSWORD_RESET' | 'EMAIL_SIGNIN'): Promise<OobCode> {
  let found: OobCode | undefined;
  await expect(async () => {
    const answer = await request.get(`${EMULATOR}/emulator/v1/projects/${PROJECT}/tenants/${TENANT}/oobCodes`);
    expect(answer.ok()).toBe(true);
    const { oobCodes } = (await answer.json()) as { oobCodes: OobCode[] };
    found = oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1);
    expect(found, `an ${requestType} code for ${email}`).toBeTruthy();
  }).toPass({ timeout: 5_000 });
  return found!;
}

/** Sets an account's password straight through the emulator's REST API (test clean-up). */
export async function setPasswordViaEmulator(request: APIRequestContext, email: string, password: string): Promise<void> {
  const send = await request.post(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=any`, {
    data: { requestType: 'PASSWORD_RESET', email, tenantId: TENANT },
  });
  expect(send.ok(), await send.text()).toBe(true);
  const { oobCode } = await latestOobCode(request, email, 'PASSWORD_RESET');
  const reset = await request.post(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=any`, {
    data: { oobCode, newPassword: password, tenantId: TENANT },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
}

/**
 * Waits until an open menu has the focus: it takes it a moment after it shows, and an arrow
 * pressed before then goes to the button that opened it, and is lost.
 */
export async function menuFocused(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="menu"]') != null)).toBe(true);
}

/**
 * An amount as the app shows it (en-US): its currency's symbol and its number. "$1,234.50"
 * → { symbol: "$", amount: 1234.5 }; "CA$3.00" → { symbol: "CA$", amount: 3 }; null for no
 * amount ("—", "").
 */
export function amountOf(text: string): { symbol: string; amount: number } | null {
  const m = /^\s*(-?)([^\d\s-]*)([\d,]+(?:\.\d+)?)\s*$/.exec(text);
  return m ? { symbol: m[2]!, amount: Number(`${m[1]}${m[3]!.replace(/,/g, '')}`) } : null;
}

/** Amounts added up per currency (by symbol), never across currencies. */
export function sumBySymbol(texts: readonly string[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const text of texts) {
    const a = amountOf(text);
    if (a) sums.set(a.symbol, (sums.get(a.symbol) ?? 0) + a.amount);
  }
  return sums;
}

/**
 * The totals a place shows, one text per unit: the items of its list when it shows several
 * (totals per currency or credit type), else its text, less a leading "Total:" label.
 */
export async function unitTotals(locator: Locator): Promise<string[]> {
  const items = await locator.locator('li').allTextContents();
  if (items.length > 0) return items.map((t) => t.trim());
  return [((await locator.textContent()) ?? '').replace(/^[^:]*:/, '').trim()];
}

/** Expects two per-currency sums to agree, to the cent. */
export function expectSameSums(actual: Map<string, number>, expected: Map<string, number>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [symbol, sum] of expected) expect(actual.get(symbol), symbol).toBeCloseTo(sum, 2);
}

/**
 * Every rule axe runs by default (WCAG 2.0–2.2 A and AA, best practices), and the
 * label-in-name rule (WCAG 2.5.3, marked experimental). Only violations are collected
 * in full: passes and incomplete checks keep one element each (axe's resultTypes),
 * which is all the report uses of them.
 */
const AXE_OPTIONS: axe.RunOptions = { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] };

/**
 * Runs axe-core on the page's document. The script goes in once per document: the screens
 * change within the app, so one copy serves them all (injected again on every check, as
 * a per-call builder does, it took three quarters of this test's time). The app has no
 * frames to look into.
 */
export async function runAxe(page: Page): Promise<axe.AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), AXE_OPTIONS);
}
