/**
 * Shapes of the reports API (`/api/v1/reports`, `/api/v1/reports/run`). A report is a
 * saved list (its kind, columns, filter, sort and visibility) with a report part: an
 * optional group-by field with aggregates, the order of the groups and a chart.
 */
import type { ListColumn, ListConfig, ListConfigInput, Row } from '../records';

export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max';
export type ChartType = 'table' | 'bar' | 'line' | 'pie';
export type GroupOrder = 'key' | 'value';

/** One computed value per group: a count, or sum/avg/min/max of a money or quantity field. */
export interface Aggregate {
  fn: AggregateFn;
  /** The field summed, averaged…; absent for a count. */
  field?: string;
}

export interface ReportSpec {
  /** The field records are grouped by; "" for a table of records. A date field groups by month. */
  groupBy: string;
  aggregates: Aggregate[];
  /** Groups by their key, or by the first aggregate, largest first. */
  order: GroupOrder;
  chart: ChartType;
}

/** A saved report, as `GET /api/v1/reports` lists it. */
export interface Report extends ListConfig {
  report: ReportSpec;
}

/** What the builder saves (POST/PUT) or previews (POST run). */
export interface ReportInput extends ListConfigInput {
  report: ReportSpec;
}

/**
 * A report's result. Grouped: `columns` are `key` (the group) and `v0…` (one per
 * aggregate), rows `{id, key, v0, …}` with numbers; ungrouped: record rows as a list
 * page has them (at most 500; `hasMore` says there are more, the CSV has them all).
 */
export interface ReportRun {
  report: ListConfig & { report?: ReportSpec };
  grouped: boolean;
  columns: ListColumn[];
  rows: Row[];
  hasMore: boolean;
  total: number;
}
