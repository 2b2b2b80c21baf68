/**
 * The dashboard's server state (`GET /api/v1/dashboard`): what awaits the user's approval,
 * the user's own records, their active projects with open items, receivables and payables
 * with their aging, and the credits available, each part only for a role that may see it. Every figure is a card:
 * the records of a kind matching a list filter, counted (and an amount totalled) by the
 * server with that list's own filter, so the list a card opens shows the same number.
 *
 * The route loader (app/prefetch.ts) and the page share these queries.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { listPath, listSearchString, kindsQuery, type Envelope, type FieldType, type Kind, type RefValue, type SortDir, type UnitTotal } from '../records';
import { recordsKey } from '../../lib/queryKeys';

/** One figure: how many records of `kind` match `filter`, and the totals of `amount` over them. */
export interface DashboardCard {
  label: string;
  /** What `label` says of a single record ("Milestone to bill"), when it differs. */
  one?: string;
  kind: string;
  /** A list filter expression; "" for every record of the kind. */
  filter: string;
  count: number;
  /**
   * The field totalled, its totals (in units) and its type (money or quantity). The totals
   * are per unit, never one sum: per currency for money (no unit: the field's base
   * currency), per credit type for credits (the field's `per`).
   */
  amount?: string;
  totals?: UnitTotal[];
  type?: FieldType;
  /** The count and totals are estimates (too many records to count exactly). */
  estimated?: boolean;
  /** How the list it opens shows the records, when not the kind's built-in list's way. */
  columns?: string[];
  sort?: { field: string; dir: SortDir };
}

/** The user's records of one kind with an owner: all, and by status. */
export interface MineSection {
  kind: string;
  all: DashboardCard;
  byStatus: DashboardCard[];
}

/** One of the user's active projects, with its open items per kind. */
export interface MyProject {
  id: number;
  name: string;
  client?: RefValue;
  open: DashboardCard[];
}

/** A kind's open balances (receivables, payables): outstanding, overdue and by days past due. */
export interface AgingSection {
  kind: string;
  label: string;
  outstanding: DashboardCard;
  overdue: DashboardCard;
  buckets: DashboardCard[];
  /** Outstanding records without a due date, in no bucket. */
  undated: number;
}

export interface Dashboard {
  /** The day the aging counts from (yyyy-mm-dd). */
  asOf: string;
  /** The user's employee record (by e-mail); "mine" needs it. */
  employee: RefValue | null;
  mine: MineSection[];
  projects?: { all: DashboardCard; rows: MyProject[] };
  aging: AgingSection[];
  credits?: DashboardCard;
  /**
   * What waits for the user's decision: one card per kind whose records they may approve
   * (its filter the kind's `approval.awaiting`); absent or empty for a role that approves nothing.
   */
  approvals?: DashboardCard[];
}

export async function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return (await api.get<Envelope<Dashboard>>('/dashboard', { signal })).data;
}

export function dashboardQuery() {
  return queryOptions({
    queryKey: [...recordsKey(), 'dashboard'] as const,
    queryFn: ({ signal }) => fetchDashboard(signal),
  });
}

/**
 * The list a card opens: the kind's built-in list (no saved list's own filter narrows it),
 * with the card's filter, and its columns and order when it has them.
 */
export function cardPath(kind: Pick<Kind, 'name' | 'route' | 'defaultList'>, card: DashboardCard): string {
  const search = listSearchString({
    list: kind.defaultList,
    filter: card.filter || undefined,
    sort: card.sort?.field,
    dir: card.sort?.dir,
    cols: card.columns,
    after: [],
    hide: [],
  });
  return listPath(kind, search);
}

/**
 * Route loader part: fetches the registry, then starts the dashboard. Rejects when the
 * registry cannot be read (the page shows why).
 */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  await queryClient.ensureQueryData(kindsQuery());
  void queryClient.prefetchQuery(dashboardQuery());
}
