/**
 * In-app paths, defined once (SPEC §2 route table). The route table (routes.tsx), the
 * named actions (actions.ts), menus, links and search results all build their targets
 * from here; no other module spells a path.
 */

/** Query parameter carrying the record id of view and edit pages: /project/view?id=42. */
export const ID_PARAM = 'id';

/** Query parameter on /login naming where to go after signing in. */
export const REDIRECT_PARAM = 'redirect';

/** Route segment of each record kind that has pages (SPEC §2). */
export type RecordSegment =
  | 'genericresource'
  | 'employee'
  | 'vendor'
  | 'vendorquestionnaire'
  | 'customer'
  | 'invoice'
  | 'vendorbill'
  | 'project'
  | 'projectrequest'
  | 'billing'
  | 'billing-summary'
  | 'budget'
  | 'creditledger'
  | 'creditavailability'
  | 'opportunity';

/** Page kinds of a record route: list, view, create, edit (meta isList/isView/isCreate/isEdit). */
export type RecordPage = 'list' | 'view' | 'create' | 'edit';

/**
 * The sub-tabs of a view, create or edit page: named tabs are child paths
 * (/project/view/billing?id=42); `catchAll` adds /<kind>/view/:tab?id=42 for any other
 * record sub-tab.
 */
export interface TabSet {
  named: readonly string[];
  catchAll: boolean;
}

/** One record kind's routes: its model (SPEC §3 record type), titles and pages. */
export interface RecordRoute {
  segment: RecordSegment;
  /** The record type, set as `model` on the parent route. */
  model: string;
  /** Singular label (view page title). */
  label: string;
  /** Plural label (list page title). */
  plural: string;
  /** The pages besides the list, each with its sub-tabs. */
  view?: TabSet;
  create?: TabSet;
  edit?: TabSet;
}

const noTabs: TabSet = { named: [], catchAll: false };
const catchAllOnly: TabSet = { named: [], catchAll: true };
const tabs = (named: readonly string[], catchAll = true): TabSet => ({ named, catchAll });

/** SPEC §2's record routes, in the order of its table. */
export const recordRoutes: readonly RecordRoute[] = [
  { segment: 'genericresource', model: 'genericresource', label: 'Generic resource', plural: 'Generic resources' },
  { segment: 'employee', model: 'employee', label: 'Employee', plural: 'Employees' },
  { segment: 'vendor', model: 'vendor', label: 'Vendor', plural: 'Vendors', view: tabs(['files']) },
  {
    segment: 'vendorquestionnaire',
    model: 'customrecord_res_vendor_questions',
    label: 'Vendor questionnaire',
    plural: 'Vendor questionnaires',
    view: catchAllOnly,
  },
  {
    segment: 'customer',
    model: 'customer',
    label: 'Client',
    plural: 'Clients',
    view: tabs(['files']),
    create: noTabs,
    edit: noTabs,
  },
  { segment: 'invoice', model: 'invoice', label: 'Invoice', plural: 'Invoices', view: tabs(['files'], false) },
  { segment: 'vendorbill', model: 'vendorbill', label: 'Vendor bill', plural: 'Vendor bills', view: tabs(['files'], false) },
  {
    segment: 'project',
    model: 'project',
    label: 'Project',
    plural: 'Projects',
    view: tabs(['billing', 'credits', 'budget', 'ecometrics', 'costdetails', 'files']),
    edit: noTabs,
  },
  {
    segment: 'projectrequest',
    model: 'projectrequest',
    label: 'Project request',
    plural: 'Project requests',
    view: catchAllOnly,
    create: catchAllOnly,
    edit: catchAllOnly,
  },
  { segment: 'billing', model: 'billing', label: 'Billing', plural: 'Billing' },
  { segment: 'billing-summary', model: 'billing_summary', label: 'Billing summary', plural: 'Billing summaries' },
  { segment: 'budget', model: 'budget', label: 'Budget', plural: 'Budgets' },
  { segment: 'creditledger', model: 'creditledger', label: 'Credit ledger', plural: 'Credit ledger' },
  { segment: 'creditavailability', model: 'creditavailability', label: 'Credit availability', plural: 'Credit availability' },
  {
    segment: 'opportunity',
    model: 'customrecord_res_opportunity',
    label: 'Opportunity',
    plural: 'Opportunities',
    view: tabs(['files', 'communication']),
    create: tabs(['credits']),
    edit: tabs(['credits', 'files']),
  },
];

const bySegment = new Map(recordRoutes.map((r) => [r.segment, r]));
const byModel = new Map(recordRoutes.map((r) => [r.model, r]));

/** The record route of a segment (/project/...), or undefined. */
export function recordRoute(segment: string): RecordRoute | undefined {
  return bySegment.get(segment as RecordSegment);
}

/** The record route serving a record type (SPEC §3 name, e.g. customrecord_res_opportunity). */
export function recordRouteOfModel(model: string): RecordRoute | undefined {
  return byModel.get(model);
}

/** The app's fixed paths. */
export const paths = {
  home: '/',
  login: '/login',
  notFound: '/404',
  listEdit: '/list/edit',
  feedback: '/feedback',
  /** What users sent through the feedback form (feedback.admin). */
  feedbackSubmissions: '/feedback/submissions',
  /** The tenant's audit log (audit.view). */
  audit: '/audit',
  /** Where the ERP sync stands (sync.view); runs for sync.admin. */
  sync: '/sync',
  reportList: '/reports/list',
  reportCreate: '/reports/create',
  /** Route pattern of one report; build links with {@link reportPath}. */
  reportView: '/reports/:reportId',
} as const;

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function tabbed(base: string, tab: string | undefined): string {
  return tab ? `${base}/${encodeURIComponent(tab)}` : base;
}

/** /<segment>/<page>: the route of a record page, without tab or id. */
export function recordPagePath(segment: RecordSegment, page: RecordPage): string {
  return `/${segment}/${page}`;
}

/** /<segment>/list */
export function listPath(segment: RecordSegment): string {
  return recordPagePath(segment, 'list');
}

/** /<segment>/view[/<tab>]?id=<id> */
export function viewPath(segment: RecordSegment, id: string | number, tab?: string): string {
  return withQuery(tabbed(recordPagePath(segment, 'view'), tab), { [ID_PARAM]: id });
}

/** /<segment>/create[/<tab>] */
export function createPath(segment: RecordSegment, tab?: string): string {
  return tabbed(recordPagePath(segment, 'create'), tab);
}

/** /<segment>/edit[/<tab>]?id=<id> */
export function editPath(segment: RecordSegment, id: string | number, tab?: string): string {
  return withQuery(tabbed(recordPagePath(segment, 'edit'), tab), { [ID_PARAM]: id });
}

/** /reports/<id> */
export function reportPath(id: string | number): string {
  return `/reports/${encodeURIComponent(String(id))}`;
}

/** The view page of a record given its record type (e.g. for search results), or undefined. */
export function recordViewPath(model: string, id: string | number, tab?: string): string | undefined {
  const route = recordRouteOfModel(model);
  return route?.view ? viewPath(route.segment, id, tab) : undefined;
}

/** `/login?redirect=<target>`; `target` is a full in-app path including its search. */
export function loginPath(target?: string): string {
  if (!target || target === paths.login) return paths.login;
  return `${paths.login}?${new URLSearchParams({ [REDIRECT_PARAM]: target })}`;
}

/**
 * The in-app path to go to after signing in, from the login page's `redirect` parameter.
 * Only same-origin paths are accepted (no `//host`, no `/\host`, no scheme), so the
 * parameter cannot send the user off-site; anything else means home.
 */
export function safeRedirectTarget(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.home;
  if (value === paths.login || value.startsWith(`${paths.login}?`) || value.startsWith(`${paths.login}/`)) return paths.home;
  return value;
}
