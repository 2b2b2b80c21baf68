import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ARTIFACTS, signInForm, submitPassword, userButton, users } from './support';

// Accessibility of every main page (issue 16): axe-core on each page in the light and the
// dark colour scheme, at 1280 px with a mouse and at 390 px on a touch screen. A serious or
// critical violation fails the test, with a summary naming page, scheme, width, rule and
// elements. Every page is also saved as a screenshot, for people to look at:
// test-results/artifacts/a11y/<scheme>-<width>-<page>.png, and the full axe results per page in
// test-results/artifacts/a11y/<scheme>-report.json.

const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];
const SHOTS = `${ARTIFACTS}/a11y`;

/** The two ways a page is looked at: a desktop with a mouse, a phone with touch. */
const DEVICES = [
  { width: 1280, height: 800, touch: false },
  { width: 390, height: 844, touch: true },
] as const;
type Device = (typeof DEVICES)[number];

/** What fails the test. */
const BLOCKING = new Set(['serious', 'critical']);

/** The kinds of record whose view page is checked (one record each) — each lays out differently. */
const VIEWED = ['project', 'invoice', 'customer', 'opportunity', 'vendor'];

interface Screen {
  /** Short name: the screenshot's and the summary's. */
  name: string;
  /** Opens the screen on the page and waits until it has settled. */
  open(page: Page): Promise<void>;
  /**
   * Checked with axe on the phone too, not only photographed there: the screens whose
   * phone layout differs in more than width (shell, tables, tabs, forms, search).
   */
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

/** Generous: a busy machine renders slowly, and this test is about what renders. */
const SETTLE = { timeout: 60_000 };

/** Waits until the page shows its heading and nothing is loading any more. */
async function settled(page: Page, heading?: string | RegExp): Promise<void> {
  const h1 = page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) });
  await expect(h1.first()).toBeVisible(SETTLE);
  await expect(page.getByRole('banner').locator('[aria-busy="true"]')).toHaveCount(0, SETTLE);
  await expect(page.getByTestId('loading')).toHaveCount(0, SETTLE);
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root[data-visible]')).toHaveCount(0, SETTLE);
  await expect(page.getByTestId('load-error')).toHaveCount(0);
}

function visit(name: string, path: string, options: { heading?: string | RegExp; phone?: boolean } = {}): Screen {
  return {
    name,
    phone: options.phone,
    async open(page) {
      await page.goto(path);
      await settled(page, options.heading);
    },
  };
}

/** The list's table, once its rows are there. */
function listTable(page: Page) {
  return page.getByRole('table', { name: /, page \d+$/ });
}

/** The path of the first record a list links to. */
async function firstRecord(page: Page, route: string): Promise<string> {
  await page.goto(`/${route}/list`);
  const link = listTable(page).locator(`tbody a[href^="/${route}/view"]`).first();
  await expect(link).toBeVisible(SETTLE);
  return (await link.getAttribute('href'))!;
}

/** The screens to check, found with the signed-in page (record paths need real ids). */
async function screens(page: Page): Promise<Screen[]> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/kinds' && r.ok());
  await page.goto('/');
  const kinds = ((await (await answer).json()) as { data: { route: string; plural: string }[] }).data;

  const views: Screen[] = [];
  const ids = new Map<string, string>();
  for (const route of VIEWED) {
    const path = await firstRecord(page, route);
    ids.set(route, new URL(path, page.url()).searchParams.get('id')!);
    views.push(visit(`view-${route}`, path, { phone: route === 'project' || route === 'invoice' }));
  }
  const projectId = ids.get('project');

  return [
    visit('dashboard', '/', { heading: 'Dashboard', phone: true }),
    ...kinds.map((kind) => visit(`list-${kind.route}`, `/${kind.route}/list`, { heading: kind.plural, phone: kind.route === 'project' || kind.route === 'invoice' })),
    ...views,
    visit('view-project-billing', `/project/view/billing?id=${projectId}`, { phone: true }),
    visit('edit-project', `/project/edit?id=${projectId}`, { phone: true }),
    visit('create-customer', '/customer/create'),
    {
      name: 'search',
      phone: true,
      async open(p) {
        await p.goto('/');
        await settled(p, 'Dashboard');
        const box = p.getByRole('search').getByRole('combobox', { name: 'Search records' });
        await box.fill('Wetland');
        await expect(p.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toBeVisible(SETTLE);
      },
    },
    visit('reports', '/reports/list', { heading: 'Reports' }),
    visit('report-create', '/reports/create'),
    visit('list-editor', '/list/edit?type=project', { phone: true }),
    visit('feedback', '/feedback', { heading: 'Feedback' }),
    visit('feedback-received', '/feedback/submissions'),
    visit('audit', '/audit', { phone: true }),
    visit('sync', '/sync'),
  ];
}

/** Runs axe on what the page shows; answers the serious and critical violations. */
async function check(page: Page, name: string, width: number, report: Record<string, unknown>): Promise<Finding[]> {
  // Every rule axe runs by default (WCAG 2.0–2.2 A and AA, best practices), and the
  // label-in-name rule (WCAG 2.5.3, marked experimental).
  const results = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true }, 'target-size': { enabled: true } } })
    .analyze();
  report[`${name}@${width}`] = {
    violations: results.violations.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    incomplete: results.incomplete.map((v) => v.id),
  };
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => ({
      page: name,
      width,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` — ${n.any[0].message}` : ''}`),
    }));
}

async function shoot(page: Page, scheme: Scheme, device: Device, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${scheme}-${device.width}-${name}.png`, fullPage: true });
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

    // Signed out: the sign-in page, on both devices.
    const pages: Page[] = [];
    for (const device of DEVICES) {
      const context = await newContext(browser, scheme, device);
      const page = await context.newPage();
      await page.goto('/login');
      await expect(signInForm(page).email).toBeVisible(SETTLE);
      findings.push(...(await check(page, 'login', device.width, report)));
      await shoot(page, scheme, device, 'login');
      pages.push(page);
    }

    // Signed in once, on the desktop; the phone shares the session.
    const [desktop] = pages as [Page, Page];
    await submitPassword(desktop, users.ada.email);
    await expect(userButton(desktop, users.ada.fullName)).toBeVisible(SETTLE);
    const state = await desktop.context().storageState({ indexedDB: true });
    await pages[1]!.context().close();
    const phone = await (await newContext(browser, scheme, DEVICES[1], state)).newPage();

    for (const screen of await screens(desktop)) {
      await test.step(screen.name, async () => {
        for (const [device, page] of [
          [DEVICES[0], desktop],
          [DEVICES[1], phone],
        ] as const) {
          await screen.open(page);
          if (!device.touch || screen.phone) findings.push(...(await check(page, screen.name, device.width, report)));
          await shoot(page, scheme, device, screen.name);
        }
      });
    }
    writeFileSync(`${SHOTS}/${scheme}-report.json`, JSON.stringify(report, null, 1));
    await desktop.context().close();
    await phone.context().close();
    expect(findings, `axe, ${scheme} scheme:\n${summary(findings)}`).toEqual([]);
  });
}
