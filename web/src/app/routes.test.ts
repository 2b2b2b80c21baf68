import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { actionPath, namedActions, resolveAction, resolveHref, type KindRoutes } from '../features/menu/actions';
import { requireAuth } from './guard';
import { mergeRouteMeta, type RouteMeta } from '../lib/meta';
import { createPath, editPath, listPath, loginPath, paths, printPath, reportPath, viewPath } from '../lib/paths';
import { routes } from './routes';

/** The matched routes of a path (pathname only; `?id=` is not part of matching). */
function match(path: string) {
  const matches = matchRoutes(routes, path);
  if (!matches) throw new Error(`no match for ${path}`);
  return matches;
}

function metaOf(path: string): RouteMeta {
  return mergeRouteMeta(match(path).map((m) => ({ handle: m.route.handle })));
}

/** The leaf route of a path. */
function leaf(path: string) {
  return match(path).at(-1)!;
}

function isNotFound(path: string): boolean {
  const last = leaf(path);
  return last.route.path === '*' || (last.route.index === true && !last.route.lazy);
}

const authed = { requiresAuth: true, showNavbar: true };

describe('route table (SPEC §2)', () => {
  it('serves /login and /404 publicly, without the navbar', () => {
    for (const path of ['/login', '/404']) {
      expect(metaOf(path), path).toMatchObject({ requiresAuth: false, showNavbar: false });
      expect(match(path).some((m) => m.route.loader === requireAuth), path).toBe(false);
    }
  });

  it('serves the dashboard at / with model project, behind the guard', () => {
    expect(metaOf('/')).toMatchObject({ ...authed, model: 'project', title: 'Dashboard' });
    expect(match('/').some((m) => m.route.loader === requireAuth)).toBe(true);
  });

  it('serves the list editor, feedback and reports', () => {
    expect(metaOf('/list/edit')).toMatchObject({ ...authed, title: 'List editor' });
    expect(metaOf('/feedback')).toMatchObject({ ...authed, title: 'Feedback' });
    expect(metaOf('/reports/list')).toMatchObject({ ...authed, isList: true });
    expect(metaOf('/reports/create')).toMatchObject({ ...authed, isCreate: true });
    expect(metaOf('/reports/42')).toMatchObject({ ...authed, isView: true });
    expect(leaf('/reports/42').params).toEqual({ reportId: '42' });
  });

  it('serves the feedback received and the audit log', () => {
    expect(metaOf('/feedback/submissions')).toMatchObject({ ...authed, isList: true, title: 'Feedback received' });
    expect(metaOf('/audit')).toMatchObject({ ...authed, isList: true, title: 'Audit log' });
  });

  it('serves the ERP sync status', () => {
    expect(metaOf('/sync')).toMatchObject({ ...authed, title: 'ERP sync' });
  });

  // Every kind's pages come from one parameterised route: the app has no table of kinds.
  const pages = { list: 'isList', view: 'isView', create: 'isCreate', edit: 'isEdit' } as const;

  it.each(['project', 'billing-summary', 'vendorquestionnaire', 'a-kind-added-later'])('/%s/*: every page of any kind segment', (segment) => {
    for (const [page, flag] of Object.entries(pages)) {
      const path = `/${segment}/${page}`;
      const meta = metaOf(path);
      expect(meta, path).toMatchObject({ ...authed, [flag]: true });
      for (const other of Object.values(pages)) if (other !== flag) expect(meta[other], `${path} ${other}`).toBeFalsy();
      // The kind is the parent's parameter, resolved against the registry when the page renders.
      const parent = match(path).at(-2)!;
      expect(parent.route.id).toBe('records');
      expect(parent.params.kind).toBe(segment);
    }
    expect(isNotFound(`/${segment}`), `/${segment} alone`).toBe(true);
  });

  it.each(['/project/view', '/opportunity/create', '/customer/edit'])('%s/<tab>: any sub-tab, one level deep', (page) => {
    const pageMeta = metaOf(page);
    const tab = leaf(`${page}/notes`);
    expect(tab.route.path).toBe(':tab');
    expect(tab.params.tab).toBe('notes');
    expect(metaOf(`${page}/notes`)).toMatchObject(pageMeta);
    expect(isNotFound(`${page}/notes/extra`)).toBe(true);
  });

  it('serves the printable document of a record without the navbar', () => {
    const print = leaf('/invoice/view/print');
    expect(print.route.path).toBe('view/print');
    expect(metaOf('/invoice/view/print')).toMatchObject({ requiresAuth: true, isView: true, showNavbar: false });
    expect(printPath('invoice', 42)).toBe('/invoice/view/print?id=42');
  });

  it('ranks the fixed paths above a kind segment', () => {
    expect(leaf('/list/edit').route.path).toBe(paths.listEdit);
    expect(leaf('/reports/list').route.path).toBe('list');
    expect(match('/reports/list').some((m) => m.route.id === 'records')).toBe(false);
    expect(leaf('/feedback/submissions').route.path).toBe(paths.feedbackSubmissions);
  });

  it('sends unknown paths to /404', () => {
    for (const path of ['/nope', '/project/list/extra', '/project/print', '/reports', '/dashboard', '/login/x']) {
      expect(isNotFound(path), path).toBe(true);
    }
  });
});

describe('paths, defined once', () => {
  it('builds list, view, create, edit and report paths', () => {
    expect(listPath('billing-summary')).toBe('/billing-summary/list');
    expect(viewPath('project', 42)).toBe('/project/view?id=42');
    expect(viewPath('project', 42, 'billing')).toBe('/project/view/billing?id=42');
    expect(createPath('opportunity')).toBe('/opportunity/create');
    expect(createPath('opportunity', 'credits')).toBe('/opportunity/create/credits');
    expect(editPath('customer', '7')).toBe('/customer/edit?id=7');
    expect(editPath('opportunity', 7, 'files')).toBe('/opportunity/edit/files?id=7');
    expect(reportPath('q3 sales')).toBe('/reports/q3%20sales');
    expect(loginPath('/project/view?id=42')).toBe('/login?redirect=%2Fproject%2Fview%3Fid%3D42');
    expect(paths).toMatchObject({ home: '/', login: '/login', notFound: '/404', listEdit: '/list/edit', feedback: '/feedback' });
  });
});

/** The registry's record types and route segments, as GET /api/v1/kinds answers them (a test fixture). */
const kinds: KindRoutes = [
  { name: 'project', route: 'project' },
  { name: 'genericresource', route: 'genericresource' },
  { name: 'billing', route: 'billing' },
  { name: 'budget', route: 'budget' },
  { name: 'employee', route: 'employee' },
  { name: 'billing_summary', route: 'billing-summary' },
  { name: 'vendor', route: 'vendor' },
  { name: 'customer', route: 'customer' },
  { name: 'invoice', route: 'invoice' },
  { name: 'vendorbill', route: 'vendorbill' },
  { name: 'projectrequest', route: 'projectrequest' },
  { name: 'customrecord_res_vendor_questions', route: 'vendorquestionnaire' },
  { name: 'customrecord_res_opportunity', route: 'opportunity' },
  { name: 'creditledger', route: 'creditledger' },
  { name: 'creditavailability', route: 'creditavailability' },
];

describe('named actions (SPEC §2)', () => {
  it('resolve every action to its screen, record type and a served route', () => {
    const expected: Record<string, [string, string | undefined, string]> = {
      dashboard: ['Dashboard', undefined, '/'],
      report: ['Report', undefined, '/reports/list'],
      'project-list': ['ProjectList', 'project', '/project/list'],
      'gr-list': ['GenericResourceList', 'genericresource', '/genericresource/list'],
      'billing-list': ['BillingList', 'billing', '/billing/list'],
      'budget-list': ['BudgetList', 'budget', '/budget/list'],
      'employee-list': ['EmployeeList', 'employee', '/employee/list'],
      'billing-summary-list': ['BillingSummaryList', 'billing_summary', '/billing-summary/list'],
      feedback: ['Feedback', undefined, '/feedback'],
      'list-view': ['ListView', undefined, '/list/edit'],
      'vendor-list': ['VendorList', 'vendor', '/vendor/list'],
      'client-list': ['ClientList', 'customer', '/customer/list'],
      'invoice-list': ['InvoiceList', 'invoice', '/invoice/list'],
      'bill-list': ['VendorBillList', 'vendorbill', '/vendorbill/list'],
      'projectrequest-list': ['ProjectRequestList', 'projectrequest', '/projectrequest/list'],
      'projectrequest-create': ['ProjectRequestCreate', 'projectrequest', '/projectrequest/create'],
      'project-edit': ['ProjectEdit', undefined, '/project/edit'],
      'vendor-questionnaire-list': ['VendorQuestionnaireList', 'customrecord_res_vendor_questions', '/vendorquestionnaire/list'],
      'opportunity-list': ['OpportunityList', 'customrecord_res_opportunity', '/opportunity/list'],
      'creditledger-list': ['CreditLedgerList', 'creditledger', '/creditledger/list'],
      'creditavailability-list': ['CreditAvailabilityList', 'creditavailability', '/creditavailability/list'],
    };
    expect(Object.keys(namedActions).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [screen, recordType, path]] of Object.entries(expected)) {
      const action = resolveAction(name)!;
      expect(action.screen, name).toBe(screen);
      expect(action.recordType, name).toBe(recordType);
      expect(actionPath(action, kinds), name).toBe(path);
      expect(isNotFound(path), `${name} → ${path}`).toBe(false);
    }
    expect(resolveAction('nope')).toBeUndefined();
  });

  it('open a record screen only once the registry names its kind', () => {
    expect(actionPath(namedActions['client-list'], undefined)).toBeUndefined();
    expect(actionPath(namedActions['client-list'], kinds.filter((k) => k.name !== 'customer'))).toBeUndefined();
    // The route segment is the registry's, whatever it is.
    expect(actionPath(namedActions['client-list'], [{ name: 'customer', route: 'clients' }])).toBe('/clients/list');
    expect(actionPath(namedActions.feedback, undefined)).toBe('/feedback');
  });

  it('menu hrefs: paths, external links, and actions by name', () => {
    expect(resolveHref('/project/list')).toEqual({ kind: 'internal', to: '/project/list' });
    expect(resolveHref('project/list')).toEqual({ kind: 'internal', to: '/project/list' });
    expect(resolveHref('https://erp.example.com/app')).toEqual({ kind: 'external', href: 'https://erp.example.com/app' });
    expect(resolveHref('action:client-list', kinds)).toEqual({ kind: 'internal', to: '/customer/list' });
    expect(resolveHref('action:project-edit?id=42', kinds)).toEqual({ kind: 'internal', to: '/project/edit?id=42' });
    expect(resolveHref('dashboard')).toEqual({ kind: 'internal', to: '/' });
    expect(resolveHref('vendor-questionnaire-list', kinds)).toEqual({ kind: 'internal', to: '/vendorquestionnaire/list' });
    expect(resolveHref('action:client-list')).toEqual({ kind: 'none' });
    expect(resolveHref('action:unknown', kinds)).toEqual({ kind: 'none' });
    expect(resolveHref('')).toEqual({ kind: 'none' });
    expect(resolveHref(undefined)).toEqual({ kind: 'none' });
  });
});
