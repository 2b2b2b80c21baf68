import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { namedActions, resolveAction, resolveHref } from './actions';
import { requireAuth } from './guard';
import { mergeRouteMeta, type RouteMeta } from './meta';
import { createPath, editPath, listPath, loginPath, paths, recordRoutes, recordViewPath, reportPath, viewPath } from './paths';
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

  // SPEC §2's table, row by row: the pages of each kind and the model its parent carries.
  const table: Array<[string, string, Array<'list' | 'view' | 'create' | 'edit'>]> = [
    ['genericresource', 'genericresource', ['list']],
    ['employee', 'employee', ['list']],
    ['vendor', 'vendor', ['list', 'view']],
    ['vendorquestionnaire', 'customrecord_res_vendor_questions', ['list', 'view']],
    ['customer', 'customer', ['list', 'view', 'create', 'edit']],
    ['invoice', 'invoice', ['list', 'view']],
    ['vendorbill', 'vendorbill', ['list', 'view']],
    ['project', 'project', ['list', 'view', 'edit']],
    ['projectrequest', 'projectrequest', ['list', 'create', 'view', 'edit']],
    ['billing', 'billing', ['list']],
    ['billing-summary', 'billing_summary', ['list']],
    ['budget', 'budget', ['list']],
    ['creditledger', 'creditledger', ['list']],
    ['creditavailability', 'creditavailability', ['list']],
    ['opportunity', 'customrecord_res_opportunity', ['list', 'view', 'create', 'edit']],
  ];

  it.each(table)('/%s/*: model %s, pages %j', (segment, model, pages) => {
    const flag = { list: 'isList', view: 'isView', create: 'isCreate', edit: 'isEdit' } as const;
    for (const page of ['list', 'view', 'create', 'edit'] as const) {
      const path = `/${segment}/${page}`;
      if (!pages.includes(page)) {
        expect(isNotFound(path), `${path} is not in the table`).toBe(true);
        continue;
      }
      const meta = metaOf(path);
      expect(meta, path).toMatchObject({ ...authed, model, [flag[page]]: true });
      for (const other of Object.values(flag)) if (other !== flag[page]) expect(meta[other], `${path} ${other}`).toBeFalsy();
      // The model sits on the parent route, once for all of its pages.
      const parent = match(path).at(-2)!;
      expect(parent.route.path).toBe(`/${segment}`);
      expect(parent.route.handle).toEqual({ model });
    }
    expect(isNotFound(`/${segment}`), `/${segment} alone`).toBe(true);
  });

  // Sub-tabs: named child paths, and the catch-all /<kind>/view/:tab where SPEC has one.
  const tabs: Array<[string, string[], boolean]> = [
    ['/vendor/view', ['files'], true],
    ['/vendorquestionnaire/view', [], true],
    ['/customer/view', ['files'], true],
    ['/invoice/view', ['files'], false],
    ['/vendorbill/view', ['files'], false],
    ['/project/view', ['billing', 'credits', 'budget', 'ecometrics', 'costdetails', 'files'], true],
    ['/projectrequest/view', [], true],
    ['/projectrequest/create', [], true],
    ['/projectrequest/edit', [], true],
    ['/opportunity/view', ['files', 'communication'], true],
    ['/opportunity/create', ['credits'], true],
    ['/opportunity/edit', ['credits', 'files'], true],
    ['/customer/create', [], false],
    ['/customer/edit', [], false],
    ['/project/edit', [], false],
  ];

  it.each(tabs)('%s: tabs %j, catch-all %s', (page, named, catchAll) => {
    const pageMeta = metaOf(page);
    for (const tab of named) {
      const last = leaf(`${page}/${tab}`);
      expect(last.route.path, `${page}/${tab}`).toBe(tab);
      expect(metaOf(`${page}/${tab}`), `${page}/${tab}`).toMatchObject({ ...pageMeta, tab });
    }
    const other = leaf(`${page}/notes`);
    if (catchAll) {
      expect(other.route.path).toBe(':tab');
      expect(other.params.tab).toBe('notes');
      expect(metaOf(`${page}/notes`)).toMatchObject(pageMeta);
    } else {
      expect(isNotFound(`${page}/notes`)).toBe(true);
    }
    // One level only: anything deeper is unknown.
    expect(isNotFound(`${page}/notes/extra`)).toBe(true);
  });

  it('sends unknown paths to /404', () => {
    for (const path of ['/nope', '/project/list/extra', '/vendor/create', '/reports', '/dashboard', '/login/x']) {
      expect(isNotFound(path), path).toBe(true);
    }
  });

  it('has a route for every record route spec', () => {
    for (const spec of recordRoutes) expect(isNotFound(listPath(spec.segment)), spec.segment).toBe(false);
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
    expect(recordViewPath('customrecord_res_opportunity', 5)).toBe('/opportunity/view?id=5');
    expect(recordViewPath('billing', 5)).toBeUndefined(); // billing has no view page
    expect(loginPath('/project/view?id=42')).toBe('/login?redirect=%2Fproject%2Fview%3Fid%3D42');
    expect(paths).toMatchObject({ home: '/', login: '/login', notFound: '/404', listEdit: '/list/edit', feedback: '/feedback' });
  });
});

describe('named actions (SPEC §2)', () => {
  it('resolve every action to its screen, record type and a served route', () => {
    const expected: Record<string, [string, string | undefined]> = {
      dashboard: ['Dashboard', undefined],
      report: ['Report', undefined],
      'project-list': ['ProjectList', 'project'],
      'gr-list': ['GenericResourceList', 'genericresource'],
      'billing-list': ['BillingList', 'billing'],
      'budget-list': ['BudgetList', 'budget'],
      'employee-list': ['EmployeeList', 'employee'],
      'billing-summary-list': ['BillingSummaryList', 'billing_summary'],
      feedback: ['Feedback', undefined],
      'list-view': ['ListView', undefined],
      'vendor-list': ['VendorList', 'vendor'],
      'client-list': ['ClientList', 'customer'],
      'invoice-list': ['InvoiceList', 'invoice'],
      'bill-list': ['VendorBillList', 'vendorbill'],
      'projectrequest-list': ['ProjectRequestList', 'projectrequest'],
      'projectrequest-create': ['ProjectRequestCreate', 'projectrequest'],
      'project-edit': ['ProjectEdit', undefined],
      'vendor-questionnaire-list': ['VendorQuestionnaireList', 'customrecord_res_vendor_questions'],
      'opportunity-list': ['OpportunityList', 'customrecord_res_opportunity'],
      'creditledger-list': ['CreditLedgerList', 'creditledger'],
      'creditavailability-list': ['CreditAvailabilityList', 'creditavailability'],
    };
    expect(Object.keys(namedActions).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [screen, recordType]] of Object.entries(expected)) {
      const action = resolveAction(name)!;
      expect(action.screen, name).toBe(screen);
      expect((action as { recordType?: string }).recordType, name).toBe(recordType);
      expect(isNotFound(action.path), `${name} → ${action.path}`).toBe(false);
      // A list action's record type is the model of the route it opens.
      if (recordType) expect(metaOf(action.path).model, name).toBe(recordType);
    }
    expect(resolveAction('nope')).toBeUndefined();
  });

  it('menu hrefs: paths, external links, and actions by name', () => {
    expect(resolveHref('/project/list')).toEqual({ kind: 'internal', to: '/project/list' });
    expect(resolveHref('project/list')).toEqual({ kind: 'internal', to: '/project/list' });
    expect(resolveHref('https://erp.example.com/app')).toEqual({ kind: 'external', href: 'https://erp.example.com/app' });
    expect(resolveHref('action:client-list')).toEqual({ kind: 'internal', to: '/customer/list' });
    expect(resolveHref('action:project-edit?id=42')).toEqual({ kind: 'internal', to: '/project/edit?id=42' });
    expect(resolveHref('dashboard')).toEqual({ kind: 'internal', to: '/' });
    expect(resolveHref('vendor-questionnaire-list')).toEqual({ kind: 'internal', to: '/vendorquestionnaire/list' });
    expect(resolveHref('action:unknown')).toEqual({ kind: 'none' });
    expect(resolveHref('')).toEqual({ kind: 'none' });
    expect(resolveHref(undefined)).toEqual({ kind: 'none' });
  });
});
