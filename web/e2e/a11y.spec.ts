import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ARTIFACTS, cookie, runAxe, signInForm, submitPassword, userButton, users } from './support';

// Accessibility of the main pages (issue 16): axe-core on every page in the light and the
// dark colour scheme at 1280 px with a mouse, and on the pages whose phone layout differs
// at 390 px on a touch screen. A serious or critical violation fails the test, with a
// summary naming page, width, rule and elements. Each page is also saved as a screenshot
// for people to look at — test-results/artifacts/a11y/<scheme>-<width>-<page>.png — and
// every page's axe results (all impacts) go to test-results/artifacts/a11y/<scheme>-report.json.
//
// One browser context per scheme and device, signed in once: the two schemes run side by
// side, and pages change the way links do, within the app, without reloading it.

test.use({ trace: 'off' }); // axe's own script would fill the trace

const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];
const SHOTS = `${ARTIFACTS}/a11y`;

/** A desktop with a mouse and a phone with touch. */
const DESKTOP = { width: 1280, height: 800, touch: false } as const;
const PHONE = { width: 390, height: 844, touch: true } as const;
type Device = typeof DESKTOP | typeof PHONE;

/** What fails the test. */
const BLOCKING = new Set(['serious', 'critical']);

/** The kinds of record whose view page is checked (one record each): each lays out differently. */
const VIEWED = ['project', 'invoice', 'customer', 'opportunity', 'vendor'];
/** Lists also looked at on the phone (the others share their layout). */
const PHONE_LISTS = new Set(['project', 'invoice']);

/** Generous: a busy machine renders slowly, and this test is about what renders. */
const SETTLE = { timeout: 60_000 };

interface Screen {
  /** Short name: the screenshot's and the summary's. */
  name: string;
  /** Opens the screen on the page and waits until it has settled. */
  open(page: Page): Promise<void>;
  /** Also checked and photographed on the phone. */
  phone?: boolean;
}

interface Finding {
  page: string;
  width: number;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Goes to an in-app path as a link or the Back button would: no reload of the app. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    // A click on a link takes the focus from where it was (a search box then clears itself).
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

/** Waits until the page shows its heading and nothing is loading any more. */
async function settled(page: Page, heading?: string | RegExp): Promise<void> {
  const h1 = page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) });
  await expect(h1.first()).toBeVisible(SETTLE);
  await expect(page.getByRole('banner').locator('[aria-busy="true"]')).toHaveCount(0, SETTLE);
  await expect(page.getByTestId('loading')).toHaveCount(0, SETTLE);
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root[data-visible]')).toHaveCount(0, SETTLE);
  await expect(page.getByTestId('load-error')).toHaveCount(0);
}

function visit(name: string, path: string | (() => string), options: { heading?: string | RegExp; phone?: boolean } = {}): Screen {
  return {
    name,
    phone: options.phone,
    async open(page) {
      await go(page, typeof path === 'string' ? path : path());
      await settled(page, options.heading);
    },
  };
}

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/**
 * The screens to check, in order. Lists come first: the first record each list of a kind in
 * {@link VIEWED} links to is the one its view page shows.
 */
async function screens(page: Page): Promise<{ screens: Screen[]; record: (route: string) => () => string }> {
  // As the app calls the API: the access token from its cookie, and the current role (kept
  // in local storage) in the role header, which every private route requires.
  const role = await page.evaluate(() => (JSON.parse(localStorage.getItem('currentRole') ?? 'null') as { id?: number } | null)?.id);
  expect(role, 'a current role after sign-in').toEqual(expect.any(Number));
  const answer = await page.request.get('/api/v1/kinds', {
    headers: { Authorization: `Bearer ${await cookie(page, 'token')}`, 'X-Role-Id': String(role) },
  });
  expect(answer.ok(), `GET /api/v1/kinds: ${answer.status()} ${await answer.text()}`).toBe(true);
  const kinds = ((await answer.json()) as { data: { route: string; plural: string }[] }).data;
  const records = new Map<string, string>();
  const record = (route: string) => () => records.get(route) ?? `/${route}/list`;
  const id = (route: string) => new URL(record(route)(), 'http://x').searchParams.get('id');

  const lists = kinds.map(
    (kind): Screen => ({
      name: `list-${kind.route}`,
      phone: PHONE_LISTS.has(kind.route),
      async open(p) {
        await go(p, `/${kind.route}/list`);
        await settled(p, kind.plural);
        if (VIEWED.includes(kind.route) && !records.has(kind.route)) {
          const link = listTable(p).locator(`tbody a[href^="/${kind.route}/view"]`).first();
          records.set(kind.route, (await link.getAttribute('href', SETTLE))!);
        }
      },
    }),
  );
  const all: Screen[] = [
    visit('dashboard', '/', { heading: 'Dashboard', phone: true }),
    ...lists,
    ...VIEWED.map((route) => visit(`view-${route}`, record(route), { phone: route === 'project' || route === 'invoice' })),
    visit('view-project-billing', () => `/project/view/billing?id=${id('project')}`, { phone: true }),
    visit('edit-project', () => `/project/edit?id=${id('project')}`, { phone: true }),
    visit('create-customer', '/customer/create'),
    {
      name: 'search',
      phone: true,
      async open(p) {
        await go(p, '/');
        await settled(p, 'Dashboard');
        await p.getByRole('search').getByRole('combobox', { name: 'Search records' }).fill('Wetland');
        await expect(p.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toBeVisible(SETTLE);
      },
    },
    visit('reports', '/reports/list', { heading: 'Reports' }),
    visit('report-create', '/reports/create'),
    visit('list-editor', '/list/edit?type=project', { phone: true }),
    visit('feedback', '/feedback', { heading: 'Feedback', phone: true }),
    visit('feedback-received', '/feedback/submissions'),
    visit('audit', '/audit', { phone: true }),
    visit('sync', '/sync'),
  ];
  return { screens: all, record };
}

/** Runs axe on what the page shows; answers the serious and critical violations. */
async function check(page: Page, name: string, device: Device, report: Record<string, unknown>): Promise<Finding[]> {
  const results = await runAxe(page);
  report[`${name}@${device.width}`] = {
    violations: results.violations.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    incomplete: results.incomplete.map((v) => v.id),
  };
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => ({
      page: name,
      width: device.width,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` — ${n.any[0].message}` : ''}`),
    }));
}

/** The page as a screenshot, up to one and a half screens of it (long lists repeat themselves). */
async function shoot(page: Page, scheme: Scheme, device: Device, name: string): Promise<void> {
  const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), device.height * 1.5);
  await page.screenshot({ path: `${SHOTS}/${scheme}-${device.width}-${name}.png`, fullPage: true, clip: { x: 0, y: 0, width: device.width, height } });
}

function newContext(browser: Browser, scheme: Scheme, device: Device, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) {
  return browser.newContext({
    baseURL: test.info().project.use.baseURL,
    colorScheme: scheme,
    reducedMotion: 'reduce',
    viewport: { width: device.width, height: device.height },
    hasTouch: device.touch,
    isMobile: device.touch,
    storageState,
  });
}

function summary(findings: Finding[]): string {
  return findings
    .map((f) => `${f.page} @${f.width}px: ${f.rule} (${f.impact}) ${f.help}\n${f.targets.map((t) => `    ${t}`).join('\n')}`)
    .join('\n');
}

test.describe.configure({ mode: 'parallel' });

for (const scheme of SCHEMES) {
  test(`axe finds no serious or critical violation on the main pages, ${scheme} scheme (1280 and 390 px)`, async ({ browser }) => {
    test.setTimeout(900_000);
    mkdirSync(SHOTS, { recursive: true });
    const findings: Finding[] = [];
    const report: Record<string, unknown> = {};
    const save = () => writeFileSync(`${SHOTS}/${scheme}-report.json`, JSON.stringify(report, null, 1));

    // Signed out: the sign-in page, on both devices.
    const desktop = await (await newContext(browser, scheme, DESKTOP)).newPage();
    const signedOut = await (await newContext(browser, scheme, PHONE)).newPage();
    for (const [device, page] of [
      [DESKTOP, desktop],
      [PHONE, signedOut],
    ] as const) {
      await page.goto('/login');
      await expect(signInForm(page).email).toBeVisible(SETTLE);
      findings.push(...(await check(page, 'login', device, report)));
      await shoot(page, scheme, device, 'login');
    }
    await signedOut.context().close();

    // Signed in once, on the desktop; the phone shares the session.
    await submitPassword(desktop, users.ada.email);
    await expect(userButton(desktop, users.ada.fullName)).toBeVisible(SETTLE);
    const phone = await (await newContext(browser, scheme, PHONE, await desktop.context().storageState({ indexedDB: true }))).newPage();
    await phone.goto('/');
    await expect(userButton(phone, users.ada.fullName)).toBeAttached(SETTLE);

    const { screens: all, record } = await screens(desktop);
    for (const screen of all) {
      await test.step(screen.name, async () => {
        for (const [device, page] of [
          [DESKTOP, desktop],
          [PHONE, phone],
        ] as const) {
          if (device === PHONE && !screen.phone) continue;
          await screen.open(page);
          findings.push(...(await check(page, screen.name, device, report)));
          await shoot(page, scheme, device, screen.name);
        }
        save();
      });
    }

    // Phone specifics (issue 16): no keyboard-shortcut hint on a touch screen; record tabs
    // that do not fit scroll sideways.
    await test.step('phone: no Ctrl K hint, tabs scroll with a cue', async () => {
      await expect(desktop.getByRole('search').locator('kbd')).toBeVisible();
      await expect(phone.getByRole('search').locator('kbd')).toBeHidden();
      await go(phone, record('project')());
      const tabs = phone.getByRole('navigation', { name: /sections$/ });
      const box = await tabs.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, cue: getComputedStyle(el).backgroundImage }));
      expect(box.scroll, 'the project tabs do not fit a phone').toBeGreaterThan(box.client);
      expect(box.cue, 'a scroll cue').toContain('radial-gradient');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'the page itself does not scroll sideways').toBeLessThanOrEqual(0);
    });

    await desktop.context().close();
    await phone.context().close();
    expect(findings, `axe, ${scheme} scheme:\n${summary(findings)}`).toEqual([]);
  });
}
