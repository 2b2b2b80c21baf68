/**
 * The report builder's form model: what a report being built holds, the rules it must
 * meet before it is previewed or saved (the server's rules, checked here first so the
 * user sees them at once), and how the server's field errors map back onto the form.
 *
 * Rules: a name (≤ 80 characters); at least one column; a filter the grammar accepts;
 * grouping by a text, status, reference or date field (dates group by month); when
 * grouped, one to five aggregates — a count (no field) or sum/avg/min/max of a money or
 * quantity field; when not grouped, no aggregates and the chart is a table.
 */
import { draftFor, type DraftCheck, validateListForm, type Kind, type KindField, type ListForm } from '../records';
import { fieldProblems } from './http';
import type { Aggregate, AggregateFn, ChartType, GroupOrder, Report, ReportInput } from './types';

export const MAX_AGGREGATES = 5;

export const CHARTS: { value: ChartType; label: string }[] = [
  { value: 'table', label: 'Table only' },
  { value: 'bar', label: 'Bar chart' },
  { value: 'line', label: 'Line chart' },
  { value: 'pie', label: 'Pie chart' },
];

export const AGGREGATE_FNS: { value: AggregateFn; label: string }[] = [
  { value: 'count', label: 'Count of records' },
  { value: 'sum', label: 'Sum of' },
  { value: 'avg', label: 'Average of' },
  { value: 'min', label: 'Minimum of' },
  { value: 'max', label: 'Maximum of' },
];

/** A report is a saved list (name, columns, filter, order, who sees it) with its grouping and chart. */
export interface ReportForm extends ListForm {
  type: string;
  groupBy: string;
  aggregates: Aggregate[];
  order: GroupOrder;
  chart: ChartType;
}

/** Problems by form part; `aggregateRows[i]` is the i-th aggregate's. */
export interface ReportErrors {
  name?: string;
  columns?: string;
  filter?: string;
  sort?: string;
  visibility?: string;
  groupBy?: string;
  aggregates?: string;
  aggregateRows?: Record<number, string>;
  order?: string;
  chart?: string;
  /** Anything not about one part. */
  form?: string;
}

/** Fields a report may group by: text, status, reference and date fields. */
export function groupableFields(kind: Kind): KindField[] {
  return kind.fields.filter((f) => f.type !== 'money' && f.type !== 'quantity');
}

/** Fields sum/avg/min/max may take: money and quantity fields. */
export function measureFields(kind: Kind): KindField[] {
  return kind.fields.filter((f) => f.type === 'money' || f.type === 'quantity');
}

/** A new report of `kind`: every field as a column, sorted by the title, a table. */
export function newReportForm(kind: Kind): ReportForm {
  return {
    type: kind.name,
    name: '',
    columns: kind.fields.map((f) => f.name),
    filter: draftFor('', kind.fields),
    sortField: kind.fields[0]?.name ?? '',
    sortDir: 'asc',
    visibility: 'private',
    groupBy: '',
    aggregates: [],
    order: 'key',
    chart: 'table',
  };
}

/** The form of a saved report. */
export function formOfReport(kind: Kind, report: Report): ReportForm {
  return {
    type: kind.name,
    name: report.name,
    columns: [...report.columns],
    filter: draftFor(report.filter, kind.fields),
    sortField: report.sort.field,
    sortDir: report.sort.dir,
    visibility: report.visibility,
    roleId: report.roleId,
    groupBy: report.report.groupBy,
    aggregates: report.report.aggregates.map((a) => ({ ...a })),
    order: report.report.order || 'key',
    chart: report.report.chart,
  };
}

/**
 * The form after choosing a group-by field: grouping starts with a count and a bar
 * chart; ungrouping drops the aggregates and makes the report a table.
 */
export function withGroupBy(form: ReportForm, groupBy: string): ReportForm {
  if (!groupBy) return { ...form, groupBy, aggregates: [], chart: 'table', order: 'key' };
  return {
    ...form,
    groupBy,
    aggregates: form.aggregates.length > 0 ? form.aggregates : [{ fn: 'count' }],
    chart: form.groupBy ? form.chart : 'bar',
  };
}

/** An aggregate with function `fn`: a count drops its field, a measure keeps or takes one. */
export function withFn(aggregate: Aggregate, fn: AggregateFn, kind: Kind): Aggregate {
  if (fn === 'count') return { fn };
  const field = measureFields(kind).some((f) => f.name === aggregate.field) ? aggregate.field : measureFields(kind)[0]?.name;
  return field ? { fn, field } : { fn };
}

export interface ReportCheck {
  /** The request body, when the form is fine. */
  input?: ReportInput;
  errors: ReportErrors;
  filterCheck: DraftCheck;
}

/** Checks the form against `kind`; gives the body to preview or save when it is fine. */
export function validateReportForm(form: ReportForm, kind: Kind): ReportCheck {
  // The saved-list part: name, columns, sort, filter, visibility.
  const list = validateListForm(form, kind, [], 'report');
  const errors: ReportErrors = { ...list.errors };
  const filterCheck = list.filterCheck;

  if (!form.groupBy) {
    if (form.chart !== 'table') errors.chart = 'A chart needs a group-by field; without one the report is a table.';
    if (form.aggregates.length > 0) errors.aggregates = 'Aggregates need a group-by field.';
  } else {
    if (!groupableFields(kind).some((f) => f.name === form.groupBy)) errors.groupBy = 'Group by a text, status, reference or date field.';
    if (form.aggregates.length === 0 || form.aggregates.length > MAX_AGGREGATES) errors.aggregates = `Choose one to ${MAX_AGGREGATES} aggregates.`;
    const measures = new Set(measureFields(kind).map((f) => f.name));
    const rows: Record<number, string> = {};
    form.aggregates.forEach((a, i) => {
      if (a.fn === 'count' && a.field) rows[i] = 'A count takes no field.';
      else if (a.fn !== 'count' && !(a.field && measures.has(a.field))) rows[i] = 'Choose a money or quantity field.';
    });
    if (Object.keys(rows).length > 0) errors.aggregateRows = rows;
  }

  if (Object.keys(errors).length > 0 || !list.input) return { errors, filterCheck };
  return {
    errors,
    filterCheck,
    input: {
      ...list.input,
      report: {
        groupBy: form.groupBy,
        aggregates: form.groupBy ? form.aggregates.map((a) => (a.fn === 'count' ? { fn: a.fn } : { fn: a.fn, field: a.field })) : [],
        order: form.order,
        chart: form.groupBy ? form.chart : 'table',
      },
    },
  };
}

const TOP_LEVEL: (keyof ReportErrors)[] = ['name', 'columns', 'filter', 'sort', 'visibility'];
const REPORT_PARTS: (keyof ReportErrors)[] = ['groupBy', 'aggregates', 'order', 'chart'];

/**
 * The server's refusal as form errors: `name`, `columns`, `filter`, `sort`,
 * `visibility`, `report.groupBy`, `report.aggregates`, `report.aggregates[i]`,
 * `report.order` and `report.chart` go to their parts, anything else to the form.
 */
export function reportServerErrors(error: unknown): ReportErrors {
  const out: ReportErrors = {};
  const add = (key: Exclude<keyof ReportErrors, 'aggregateRows'>, message: string) => {
    out[key] = out[key] ? `${out[key]} ${message}` : message;
  };
  for (const { field, message } of fieldProblems(error)) {
    const row = /^report\.aggregates\[(\d+)\]$/.exec(field);
    const part = (field.startsWith('report.') ? field.slice('report.'.length) : field.split(/[.[]/)[0]) as Exclude<keyof ReportErrors, 'aggregateRows'>;
    const known = field.startsWith('report.') ? REPORT_PARTS : TOP_LEVEL;
    if (row) out.aggregateRows = { ...out.aggregateRows, [Number(row[1])]: message };
    else add(known.includes(part) ? part : 'form', message);
  }
  if (Object.keys(out).length === 0) add('form', error instanceof Error ? error.message : String(error));
  return out;
}

/** The label of an aggregate's column, as the server names it: "Count", "Sum of Contract value". */
export function aggregateLabel(aggregate: Aggregate, kind: Kind | undefined): string {
  if (aggregate.fn === 'count') return 'Count';
  const names: Record<AggregateFn, string> = { count: 'Count', sum: 'Sum', avg: 'Average', min: 'Minimum', max: 'Maximum' };
  return `${names[aggregate.fn]} of ${kind?.fields.find((f) => f.name === aggregate.field)?.label ?? aggregate.field ?? ''}`;
}
