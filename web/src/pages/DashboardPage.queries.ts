/**
 * The dashboard's server state: which figures it shows for the current role, and the
 * `queryOptions` that fetch them. The route loader (app/prefetch.ts) and the page's hooks
 * build the same plan, so they share cache entries.
 *
 * Every figure reads the records API through a kind's built-in list (its `defaultList`),
 * so no saved list's own filter narrows a count; the active-projects table reads through
 * the user's chosen default project list (SPEC §4), i.e. the user's own view.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api';
import { listQuery as listQueryString, productPath, type ListParams } from '../records/api';
import { kindsQuery, listPageQuery, recordsKey } from '../records/queries';
import { serializeFilter } from '../records/filter';
import type { Kind, KindField, ListPage } from '../records/types';
import type { Role } from '../session/types';
import { useSessionStore } from '../session/store';
import { useAppStore } from '../shell/appState';

export const PROJECT_TYPE = 'project';
export const INVOICE_TYPE = 'invoice';
export const CREDITS_TYPE = 'creditavailability';

/** Rows of the active-projects table. */
export const ACTIVE_PROJECT_ROWS = 8;
/** Credit pools summed for "credits available"; beyond this the figure says "at least". */
export const CREDIT_POOLS_LIMIT = 500;

const ACTIVE = /^active$/i;
const OUTSTANDING = /^(open|overdue)$/i;

/** Whether the role may see a kind: the server's `<route>.view` permission. */
export function canView(role: Pick<Role, 'permissions'> | null | undefined, kind: Pick<Kind, 'route'>): boolean {
  return !!role?.permissions.includes(`${kind.route}.view`);
}

function fieldOn(kind: Kind, column: string): KindField | undefined {
  return kind.fields.find((f) => f.column === column);
}

function equals(field: string, value: string): string {
  return serializeFilter([{ join: 'and', field, op: 'eq', value }]);
}

/** A list page with its `total` (count=true). */
async function fetchCounted(params: ListParams, signal: AbortSignal): Promise<ListPage & { total: number }> {
  const answer = await api.get<{ data: ListPage }>(productPath('-list'), {
    query: { ...listQueryString(params), count: 'true' },
    signal,
  });
  const page = answer.data;
  if (typeof page.total !== 'number') throw new ApiError('500', 'The server did not count the records.', 500);
  return { ...page, total: page.total };
}

/** How many records of a kind match `filter`. */
export function countQuery(kind: Pick<Kind, 'name' | 'defaultList'>, filter: string) {
  const params: ListParams = { type: kind.name, list: kind.defaultList, filter, pageSize: 1 };
  return queryOptions({
    queryKey: [...recordsKey(), 'dashboard', 'count', params] as const,
    queryFn: async ({ signal }) => (await fetchCounted(params, signal)).total,
  });
}

/** The largest pools of available credits, with the count of all pools. */
export function creditPoolsQuery(kind: Pick<Kind, 'name' | 'defaultList'>, field: string) {
  const params: ListParams = { type: kind.name, list: kind.defaultList, sort: field, dir: 'desc', pageSize: CREDIT_POOLS_LIMIT };
  return queryOptions({
    queryKey: [...recordsKey(), 'dashboard', 'credits', params] as const,
    queryFn: async ({ signal }) => {
      const page = await fetchCounted(params, signal);
      let sum = 0;
      for (const row of page.rows) {
        const value = row[field];
        if (typeof value === 'number' && Number.isFinite(value)) sum += value;
      }
      return { sum, pools: page.total, complete: !page.hasMore };
    },
  });
}

export interface StatusCount {
  status: string;
  /** The filter expression selecting this status. */
  filter: string;
  query: ReturnType<typeof countQuery>;
}

function statusCount(kind: Kind, field: KindField, status: string): StatusCount {
  const filter = equals(field.name, status);
  return { status, filter, query: countQuery(kind, filter) };
}

/** What the dashboard shows for a role: a part per kind the role may see. */
export interface DashboardPlan {
  projects?: {
    kind: Kind;
    statusField: KindField;
    statuses: StatusCount[];
    /** The "Active" status and the user's view of its projects, when the kind has that status. */
    active?: { status: string; filter: string; table: ListParams };
  };
  invoices?: { kind: Kind; statusField: KindField; outstanding: StatusCount[] };
  credits?: { kind: Kind; field: KindField; query: ReturnType<typeof creditPoolsQuery> };
}

/**
 * The dashboard's figures for `role`, from the kind registry: projects by status and the
 * active ones, outstanding invoices, available credits; each only when the role may see
 * that kind (the server would answer 403) and the registry has the fields it needs.
 */
export function dashboardPlan(kinds: readonly Kind[], role: Pick<Role, 'permissions'> | null | undefined, defaultLists: Record<string, string>): DashboardPlan {
  const plan: DashboardPlan = {};
  const byName = (name: string) => kinds.find((k) => k.name === name);

  const project = byName(PROJECT_TYPE);
  const projectStatus = project && fieldOn(project, 'status');
  if (project && projectStatus?.choices?.length && canView(role, project)) {
    const statuses = projectStatus.choices.map((status) => statusCount(project, projectStatus, status));
    plan.projects = { kind: project, statusField: projectStatus, statuses };
    const active = projectStatus.choices.find((c) => ACTIVE.test(c));
    if (active) {
      const filter = equals(projectStatus.name, active);
      const date = fieldOn(project, 'occurred_on');
      const table: ListParams = { type: project.name, filter, pageSize: ACTIVE_PROJECT_ROWS };
      const chosen = defaultLists[project.name];
      if (chosen) table.list = chosen;
      if (date) {
        table.sort = date.name;
        table.dir = 'desc';
      }
      plan.projects.active = { status: active, filter, table };
    }
  }

  const invoice = byName(INVOICE_TYPE);
  const invoiceStatus = invoice && fieldOn(invoice, 'status');
  const outstanding = invoiceStatus?.choices?.filter((c) => OUTSTANDING.test(c)) ?? [];
  if (invoice && invoiceStatus && outstanding.length > 0 && canView(role, invoice)) {
    plan.invoices = {
      kind: invoice,
      statusField: invoiceStatus,
      outstanding: outstanding.map((status) => statusCount(invoice, invoiceStatus, status)),
    };
  }

  const credits = byName(CREDITS_TYPE);
  const available = credits && credits.fields.find((f) => f.type === 'quantity');
  if (credits && available && canView(role, credits)) {
    plan.credits = { kind: credits, field: available, query: creditPoolsQuery(credits, available.name) };
  }
  return plan;
}

/**
 * Route loader part: fetches the registry, then starts every figure of the current role.
 * Rejects when the registry cannot be read (the page shows why).
 */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  const kinds = await queryClient.ensureQueryData(kindsQuery());
  const plan = dashboardPlan(kinds, useSessionStore.getState().currentRole, useAppStore.getState().defaultLists);
  for (const s of plan.projects?.statuses ?? []) void queryClient.prefetchQuery(s.query);
  if (plan.projects?.active) void queryClient.prefetchQuery(listPageQuery(plan.projects.active.table));
  for (const s of plan.invoices?.outstanding ?? []) void queryClient.prefetchQuery(s.query);
  if (plan.credits) void queryClient.prefetchQuery(plan.credits.query);
}
