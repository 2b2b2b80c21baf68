import type { Kind } from '../records';
import { paths, recordPagePath, type RecordPage } from '../../lib/paths';

/**
 * Named actions (SPEC §2), resolved to their screens and routes in this one table. A menu
 * item may name an action instead of a path: `href: "action:project-list"` (or the bare
 * action name, as older layouts did). SPEC does not relate the action names to paths; the
 * mapping below is ours: each action opens the route of its screen. A record screen's
 * path comes from the kind registry (the record type's route segment), so the table
 * names record types only, never paths of kinds.
 */
export interface NamedAction {
  /** Screen name, as SPEC §2 lists it. */
  screen: string;
  /** Record type (SPEC §3) the screen shows, when it shows one. */
  recordType?: string;
  /** The in-app path of a screen that is no record page. */
  path?: string;
  /** The record page a record screen opens: that page of the record type's kind, /<route>/<page>. */
  record?: { type: string; page: RecordPage };
}

const list = (screen: string, recordType: string): NamedAction => ({ screen, recordType, record: { type: recordType, page: 'list' } });

export const namedActions = {
  dashboard: { screen: 'Dashboard', path: paths.home },
  report: { screen: 'Report', path: paths.reportList },
  'project-list': list('ProjectList', 'project'),
  'gr-list': list('GenericResourceList', 'genericresource'),
  'billing-list': list('BillingList', 'billing'),
  'budget-list': list('BudgetList', 'budget'),
  'employee-list': list('EmployeeList', 'employee'),
  'billing-summary-list': list('BillingSummaryList', 'billing_summary'),
  feedback: { screen: 'Feedback', path: paths.feedback },
  // The saved-list screen: where list configurations are viewed and edited.
  'list-view': { screen: 'ListView', path: paths.listEdit },
  'vendor-list': list('VendorList', 'vendor'),
  'client-list': list('ClientList', 'customer'),
  'invoice-list': list('InvoiceList', 'invoice'),
  'bill-list': list('VendorBillList', 'vendorbill'),
  'projectrequest-list': list('ProjectRequestList', 'projectrequest'),
  'projectrequest-create': { screen: 'ProjectRequestCreate', recordType: 'projectrequest', record: { type: 'projectrequest', page: 'create' } },
  // Edits one project: the menu item supplies the record, e.g. "action:project-edit?id=42".
  // SPEC gives this screen no record type; it is a project's edit page.
  'project-edit': { screen: 'ProjectEdit', record: { type: 'project', page: 'edit' } },
  'vendor-questionnaire-list': list('VendorQuestionnaireList', 'customrecord_res_vendor_questions'),
  'opportunity-list': list('OpportunityList', 'customrecord_res_opportunity'),
  'creditledger-list': list('CreditLedgerList', 'creditledger'),
  'creditavailability-list': list('CreditAvailabilityList', 'creditavailability'),
} as const satisfies Record<string, NamedAction>;

export type ActionName = keyof typeof namedActions;

/** Prefix of an href that names an action. */
export const ACTION_PREFIX = 'action:';

export function isActionName(name: string): name is ActionName {
  return Object.prototype.hasOwnProperty.call(namedActions, name);
}

/** The action `name` resolves to, or undefined. */
export function resolveAction(name: string): NamedAction | undefined {
  return isActionName(name) ? namedActions[name] : undefined;
}

/** The kinds the current role sees, as `GET /api/v1/kinds` answers them (what resolving needs). */
export type KindRoutes = readonly Pick<Kind, 'name' | 'route'>[];

/**
 * The path an action opens: its fixed path, or its page of its record type's kind, with
 * the route segment the registry gives that kind. Undefined when the kind is not among
 * `kinds` (the role does not see it, or the registry has not answered yet).
 */
export function actionPath(action: NamedAction, kinds: KindRoutes | undefined): string | undefined {
  if (action.path !== undefined) return action.path;
  const { record } = action;
  const kind = record && kinds?.find((k) => k.name === record.type);
  return kind && record ? recordPagePath(kind.route, record.page) : undefined;
}

/** Where a menu href leads: an in-app path, an external link (new tab), or nowhere. */
export type HrefTarget = { kind: 'internal'; to: string } | { kind: 'external'; href: string } | { kind: 'none' };

/** Whether an href leaves the app (opened in a new tab). */
export function isExternalHref(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/**
 * Resolves a menu item's href (SPEC §2 "selecting a menu item navigates to the item's
 * href"): `https://…` is external; `action:<name>[?query]` and a bare action name open the
 * action's route, a record screen's through `kinds` (an unknown action, or one whose kind
 * is not in `kinds`, leads nowhere); anything else is an in-app path ("project/list" and
 * "/project/list" both mean /project/list).
 */
export function resolveHref(href: string | undefined | null, kinds?: KindRoutes): HrefTarget {
  const value = href?.trim() ?? '';
  if (!value) return { kind: 'none' };
  if (isExternalHref(value)) return { kind: 'external', href: value };
  const named = value.startsWith(ACTION_PREFIX) ? value.slice(ACTION_PREFIX.length) : isActionName(value.split('?')[0]!) ? value : null;
  if (named !== null) {
    const [name = '', query] = splitOnce(named, '?');
    const action = resolveAction(name);
    const path = action && actionPath(action, kinds);
    if (!path) return { kind: 'none' };
    return { kind: 'internal', to: query ? `${path}?${query}` : path };
  }
  return { kind: 'internal', to: value.startsWith('/') ? value : `/${value}` };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
