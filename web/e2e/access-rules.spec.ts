import { expect, test, type Page } from '@playwright/test';
import { cookie, signIn, users } from './support';

/**
 * Access by record (issue 35), with the demo's rules: Pete, a project manager, sees the
 * invoices, vendor bills (cost details) and billing of the projects he manages, and only
 * those. He opens the Invoices and Cost details tabs of one of his projects and sees their
 * rows; another manager's project shows him no invoices, and its invoice is not found; his
 * invoice list counts and totals (per currency) exactly the invoices of his projects. The
 * expected records come from the administrator, who sees every invoice.
 */

const ROLE = { admin: 1001, projectManager: 1002 } as const;

type Ref = { id: number; refName: string };
type Row = { id: number; _currency?: string | null } & Record<string, unknown>;
interface UnitTotal {
  unit?: string; // none: the base currency
  total: number;
}
interface ListAnswer {
  data: { rows: Row[]; hasMore: boolean; nextCursor?: string | null; total?: number; totals?: Record<string, UnitTotal[]> };
}
interface TabAnswer {
  data: { rows: Row[]; hasMore: boolean };
}

/** GETs the API as the page's signed-in user in role: the token from its cookie, the role header. */
async function apiOf(page: Page, role: number) {
  const token = await cookie(page, 'token');
  expect(token, 'a token after sign-in').toBeTruthy();
  return async <T>(path: string, params: Record<string, string>): Promise<T> => {
    const answer = await page.request.get(`${path}?${new URLSearchParams(params)}`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Role-Id': String(role) },
    });
    expect(answer.ok(), `GET ${path} ${JSON.stringify(params)}: ${answer.status()} ${await answer.text()}`).toBe(true);
    return (await answer.json()) as T;
  };
}

type Api = Awaited<ReturnType<typeof apiOf>>;

/** Every row of a list, page after page. */
async function allRows(api: Api, type: string, filter = ''): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor = '';
  for (let i = 0; i < 100; i++) {
    const page = await api<ListAnswer>('/api/v1/netsuite/portal-list', { type, filter, pageSize: '100', ...(cursor ? { cursor } : {}) });
    rows.push(...page.data.rows);
    if (!page.data.hasMore || !page.data.nextCursor) break;
    cursor = page.data.nextCursor;
  }
  return rows;
}

function refId(row: Row, field: string): number | undefined {
  return (row[field] as Ref | null | undefined)?.id;
}

/** Amounts added up per currency ("" the base currency), never across currencies. */
function sumsByCurrency(rows: Row[], field: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) {
    const unit = row._currency ?? '';
    sums.set(unit, (sums.get(unit) ?? 0) + Number(row[field] ?? 0));
  }
  return sums;
}

test.describe('access rules', () => {
  test('Pete sees the money of his own projects, and only theirs', async ({ page, browser }) => {
    test.slow(); // two sign-ins and a call per project of his

    // What there is: the administrator sees every invoice and vendor bill.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, users.ada.email, users.ada.fullName);
    const admin = await apiOf(adminPage, ROLE.admin);
    const invoices = await allRows(admin, 'invoice');
    const bills = await allRows(admin, 'vendorbill');
    await adminContext.close();
    expect(invoices.length).toBeGreaterThan(0);

    await signIn(page, users.pete.email, users.pete.fullName);
    const pete = await apiOf(page, ROLE.projectManager);
    const dashboard = await pete<{ data: { employee: Ref | null } }>('/api/v1/dashboard', {});
    const me = dashboard.data.employee?.id;
    expect(me, 'Pete is an employee').toEqual(expect.any(Number));
    const mine = new Set((await allRows(pete, 'project', `projectmanager eq ${me}`)).map((p) => p.id));
    expect(mine.size).toBeGreaterThan(0);
    const hisInvoices = invoices.filter((r) => mine.has(refId(r, 'job') ?? 0));
    const hisBills = bills.filter((r) => mine.has(refId(r, 'custbody_res_project') ?? 0));
    expect(hisInvoices.length, 'invoices on his projects in the demo').toBeGreaterThan(0);
    expect(hisBills.length, 'vendor bills on his projects in the demo').toBeGreaterThan(0);

    // One of his projects with invoices and bills, from "My active projects" when one there has both.
    const count = (rows: Row[], field: string, project: number) => rows.filter((r) => refId(r, field) === project).length;
    const both = (id: number) => count(hisInvoices, 'job', id) > 0 && count(hisBills, 'custbody_res_project', id) > 0;
    const active = page.getByRole('region', { name: 'My active projects' });
    await expect(active.getByTestId('my-project').first()).toBeVisible();
    // Each row links its project's page (and its open items' lists).
    const projectLinks = active.getByTestId('my-project').locator('a[href^="/project/view"]');
    const listed = await projectLinks.evaluateAll((links) =>
      links.map((a) => Number(new URL((a as HTMLAnchorElement).href).searchParams.get('id'))),
    );
    for (const id of listed) expect(mine.has(id), `project ${id} of "My active projects" is his`).toBe(true);
    const fromDashboard = listed.find(both);
    const project = fromDashboard ?? [...mine].find(both);
    expect(project, 'a project of his with invoices and vendor bills in the demo').toBeDefined();
    if (fromDashboard) {
      await projectLinks.nth(listed.indexOf(fromDashboard)).click();
      await expect(page).toHaveURL(new RegExp(`/project/view\\?id=${project}$`));
    } else {
      await page.goto(`/project/view?id=${project}`);
    }

    // Its Invoices and Cost details tabs: his rows, not "Not available to your role".
    const sections = page.getByRole('navigation', { name: 'Project sections' });
    for (const [label, rows, field] of [
      ['Invoices', hisInvoices, 'job'],
      ['Cost details', hisBills, 'custbody_res_project'],
    ] as const) {
      const want = count(rows, field, project!);
      expect(want, `${label} of project ${project}`).toBeGreaterThan(0);
      await sections.getByRole('link', { name: label, exact: true }).click();
      const tab = page.getByTestId('record-tab');
      await expect(tab).toBeVisible();
      await expect(page.getByText('Not available to your role')).toHaveCount(0);
      await expect(tab.getByRole('table').last().locator('tbody tr')).toHaveCount(want);
    }

    // Another manager's project that has invoices: its Invoices tab shows him none, and
    // its invoice is not found, as a record that does not exist.
    const theirs = invoices.find((r) => refId(r, 'job') !== undefined && !mine.has(refId(r, 'job')!));
    expect(theirs, 'an invoice of another manager’s project').toBeTruthy();
    const other = refId(theirs!, 'job')!;
    const otherTab = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/portal-record') && url.searchParams.get('tab') === 'invoices' && url.searchParams.get('id') === String(other);
    });
    await page.goto(`/project/view/invoices?id=${other}`);
    const answer = await otherTab;
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as TabAnswer).data.rows).toEqual([]);
    await expect(page.getByTestId('record-tab').getByText('No invoices yet.')).toBeVisible();
    await expect(page.getByText('Not available to your role')).toHaveCount(0);
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/portal-record') && new URL(r.url()).searchParams.get('id') === String(theirs!.id));
    await page.goto(`/invoice/view?id=${theirs!.id}`);
    expect((await refused).status()).toBe(404);
    await expect(page.getByText('Not found', { exact: true })).toBeVisible();

    // His invoice list: as many invoices as his projects' Invoices tabs hold, and the
    // invoices of his projects exactly, totalled per currency.
    let onTabs = 0;
    for (const id of mine) {
      const tab = await pete<TabAnswer>('/api/v1/netsuite/portal-record', { type: 'project', id: String(id), tab: 'invoices' });
      expect(tab.data.hasMore).toBe(false);
      for (const row of tab.data.rows) expect(refId(row, 'job'), `invoice ${row.id} on the tab of project ${id}`).toBe(id);
      onTabs += tab.data.rows.length;
    }
    expect(onTabs).toBe(hisInvoices.length);
    const counted = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/portal-list') && url.searchParams.get('type') === 'invoice' && url.searchParams.get('count') === 'true' && r.ok();
    });
    await page.goto('/invoice/list');
    const total = ((await (await counted).json()) as ListAnswer).data.total;
    expect(total).toBe(hisInvoices.length);
    await expect(page.getByTestId('list-total')).toHaveText(`${hisInvoices.length.toLocaleString('en-US')} ${hisInvoices.length === 1 ? 'record' : 'records'}`);
    await expect(page.getByText('Not available to your role')).toHaveCount(0);
    const listedIds = (await allRows(pete, 'invoice')).map((r) => r.id).sort((a, b) => a - b);
    expect(listedIds).toEqual(hisInvoices.map((r) => r.id).sort((a, b) => a - b));
    const summed = await pete<ListAnswer>('/api/v1/netsuite/portal-list', { type: 'invoice', count: 'true', totals: 'true', pageSize: '1' });
    const shown = new Map((summed.data.totals?.total ?? []).filter((u) => u.total !== 0).map((u) => [u.unit ?? '', u.total]));
    const expected = sumsByCurrency(hisInvoices, 'total');
    expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [unit, sum] of expected) expect(shown.get(unit), unit || 'base currency').toBeCloseTo(sum, 2);
  });
});
