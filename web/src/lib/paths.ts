/**
 * In-app paths, defined once (SPEC §2 route table). The route table (routes.tsx), the
 * named actions (actions.ts), menus, links and search results all build their targets
 * from here; no other module spells a path.
 */

/** Query parameter carrying the record id of view and edit pages: /project/view?id=42. */
export const ID_PARAM = 'id';

/**
 * The view page's segment of the printable document (/invoice/view/print?id=42): a name
 * no record sub-tab may take.
 */
export const PRINT_SEGMENT = 'print';

/** Query parameter on /login naming where to go after signing in. */
export const REDIRECT_PARAM = 'redirect';

/**
 * Name of the route parameter naming the record kind: /:kind/list, where `kind` is the
 * kind's `route` in the registry (GET /api/v1/kinds). The app has no table of kinds of
 * its own: the record pages resolve the parameter against the registry.
 */
export const KIND_PARAM = 'kind';

/** Page kinds of a record route: list, view, create, edit (meta isList/isView/isCreate/isEdit). */
export type RecordPage = 'list' | 'view' | 'create' | 'edit';

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
  /** Administration (access.admin): the tenant's users, roles and menus. */
  adminUsers: '/admin/users',
  adminRoles: '/admin/roles',
  adminMenus: '/admin/menus',
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

/** /<route>/<page>: the path of a record page of the kind with that route, without tab or id. */
export function recordPagePath(route: string, page: RecordPage): string {
  return `/${route}/${page}`;
}

/** /<route>/list */
export function listPath(route: string): string {
  return recordPagePath(route, 'list');
}

/** /<route>/view[/<tab>]?id=<id> */
export function viewPath(route: string, id: string | number, tab?: string): string {
  return withQuery(tabbed(recordPagePath(route, 'view'), tab), { [ID_PARAM]: id });
}

/** /<route>/view/print?id=<id>: the record as a printable document. */
export function printPath(route: string, id: string | number): string {
  return withQuery(`${recordPagePath(route, 'view')}/${PRINT_SEGMENT}`, { [ID_PARAM]: id });
}

/** /<route>/create[/<tab>] */
export function createPath(route: string, tab?: string): string {
  return tabbed(recordPagePath(route, 'create'), tab);
}

/** /<route>/edit[/<tab>]?id=<id> */
export function editPath(route: string, id: string | number, tab?: string): string {
  return withQuery(tabbed(recordPagePath(route, 'edit'), tab), { [ID_PARAM]: id });
}

/** /reports/<id> */
export function reportPath(id: string | number): string {
  return `/reports/${encodeURIComponent(String(id))}`;
}

/** `/login?redirect=<target>`; `target` is a full in-app path including its search. */
export function loginPath(target?: string): string {
  if (!target || target === paths.login) return paths.login;
  return `${paths.login}?${new URLSearchParams({ [REDIRECT_PARAM]: target })}`;
}

/**
 * Characters no in-app path holds: control characters (browsers drop tabs and line breaks,
 * so "/\t/evil.example" is "//evil.example"), white space, and backslashes (read as "/").
 */
const NOT_IN_PATH = /[\u0000-\u001f\u007f-\u009f\s\\]/; // eslint-disable-line no-control-regex

/**
 * Whether `value` is a path of this app, as the server's portal.InAppPath judges: it starts
 * with one "/" (no `//host`, no scheme) and holds no control character, white space or
 * backslash anywhere.
 */
export function isInAppPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !NOT_IN_PATH.test(value);
}

/**
 * The in-app path to go to after signing in, from the login page's `redirect` parameter.
 * Only paths of the app are accepted ({@link isInAppPath}), so the parameter cannot send
 * the user off-site; anything else means no target: home.
 */
export function safeRedirectTarget(value: string | null | undefined): string {
  if (!value || !isInAppPath(value)) return paths.home;
  if (value === paths.login || value.startsWith(`${paths.login}?`) || value.startsWith(`${paths.login}/`)) return paths.home;
  return value;
}
