import { createPath, listPath, paths, recordPagePath, type RecordSegment } from './paths';

/**
 * Named actions (SPEC §2), resolved to their screens and routes in this one table. A menu
 * item may name an action instead of a path: `href: "action:project-list"` (or the bare
 * action name, as older layouts did). SPEC does not relate the action names to paths; the
 * mapping below is ours: each action opens the route of its screen.
 */
export interface NamedAction {
  /** Screen name, as SPEC §2 lists it. */
  screen: string;
  /** Record type (SPEC §3) the screen shows, when it shows one. */
  recordType?: string;
  /** The in-app path the action opens. */
  path: string;
}

const list = (screen: string, recordType: string, segment: RecordSegment): NamedAction => ({
  screen,
  recordType,
  path: listPath(segment),
});

export const namedActions = {
  dashboard: { screen: 'Dashboard', path: paths.home },
  report: { screen: 'Report', path: paths.reportList },
  'project-list': list('ProjectList', 'project', 'project'),
  'gr-list': list('GenericResourceList', 'genericresource', 'genericresource'),
  'billing-list': list('BillingList', 'billing', 'billing'),
  'budget-list': list('BudgetList', 'budget', 'budget'),
  'employee-list': list('EmployeeList', 'employee', 'employee'),
  'billing-summary-list': list('BillingSummaryList', 'billing_summary', 'billing-summary'),
  feedback: { screen: 'Feedback', path: paths.feedback },
  // The saved-list screen: where list configurations are viewed and edited.
  'list-view': { screen: 'ListView', path: paths.listEdit },
  'vendor-list': list('VendorList', 'vendor', 'vendor'),
  'client-list': list('ClientList', 'customer', 'customer'),
  'invoice-list': list('InvoiceList', 'invoice', 'invoice'),
  'bill-list': list('VendorBillList', 'vendorbill', 'vendorbill'),
  'projectrequest-list': list('ProjectRequestList', 'projectrequest', 'projectrequest'),
  'projectrequest-create': { screen: 'ProjectRequestCreate', recordType: 'projectrequest', path: createPath('projectrequest') },
  // Edits one project: the menu item supplies the record, e.g. "action:project-edit?id=42".
  'project-edit': { screen: 'ProjectEdit', path: recordPagePath('project', 'edit') },
  'vendor-questionnaire-list': list('VendorQuestionnaireList', 'customrecord_res_vendor_questions', 'vendorquestionnaire'),
  'opportunity-list': list('OpportunityList', 'customrecord_res_opportunity', 'opportunity'),
  'creditledger-list': list('CreditLedgerList', 'creditledger', 'creditledger'),
  'creditavailability-list': list('CreditAvailabilityList', 'creditavailability', 'creditavailability'),
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

/** Where a menu href leads: an in-app path, an external link (new tab), or nowhere. */
export type HrefTarget = { kind: 'internal'; to: string } | { kind: 'external'; href: string } | { kind: 'none' };

/** Whether an href leaves the app (opened in a new tab). */
export function isExternalHref(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/**
 * Resolves a menu item's href (SPEC §2 "selecting a menu item navigates to the item's
 * href"): `https://…` is external; `action:<name>[?query]` and a bare action name open the
 * action's route (an unknown action leads nowhere); anything else is an in-app path
 * ("project/list" and "/project/list" both mean /project/list).
 */
export function resolveHref(href: string | undefined | null): HrefTarget {
  const value = href?.trim() ?? '';
  if (!value) return { kind: 'none' };
  if (isExternalHref(value)) return { kind: 'external', href: value };
  const named = value.startsWith(ACTION_PREFIX) ? value.slice(ACTION_PREFIX.length) : isActionName(value.split('?')[0]!) ? value : null;
  if (named !== null) {
    const [name = '', query] = splitOnce(named, '?');
    const action = resolveAction(name);
    if (!action) return { kind: 'none' };
    return { kind: 'internal', to: query ? `${action.path}?${query}` : action.path };
  }
  return { kind: 'internal', to: value.startsWith('/') ? value : `/${value}` };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
