/**
 * A report's result: its chart (when grouped and the chart is not "table"; the charting
 * code loads on first use) above its table, and a line on how many groups or records it
 * covers. Ungrouped rows are records and link to their view pages. Money reads in its row's
 * currency (`_currency`: a group of records in another currency is a row of its own, its
 * key saying so), else in the base currency of the field it is of.
 */
import { Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { DataTable, formatCount, formatRecordCount, baseCurrency, fieldOf, type Kind, type ListColumn } from '../records';
import type { ChartType, ReportRun } from './types';
import classes from './reports.module.css';

const ReportChart = lazy(() => import('./ReportChart'));

export interface ReportResultProps {
  run: ReportRun;
  chart: ChartType;
  /** The report's name, naming its chart and table. */
  title: string;
  kind?: Kind;
  kinds?: Kind[];
  /** A newer result is on its way (the preview keeps the last one up meanwhile). */
  busy?: boolean;
  /** The level of the headings inside the result (a chart per currency), under the heading it sits below. */
  headingOrder?: 2 | 3 | 4;
}

/** What the result covers: "4 groups", "1,234 records (the table shows the first 500)". */
export function resultSummary(run: ReportRun): string {
  if (run.grouped) {
    const groups = `${formatCount(run.rows.length)} ${run.rows.length === 1 ? 'group' : 'groups'}`;
    return run.hasMore ? `${groups} (only the first ${formatCount(run.rows.length)} are shown)` : groups;
  }
  return run.hasMore ? `${formatRecordCount(run.total)} (the table shows the first ${formatCount(run.rows.length)}; the CSV has them all)` : formatRecordCount(run.total);
}

/**
 * The result's columns; a grouped report's money aggregates (`v0`, …) name the base currency
 * of the field they are over (the answer does not), as a list's money column has its field's.
 */
export function resultColumns(run: ReportRun, kind: Kind | undefined): ListColumn[] {
  if (!run.grouped) return run.columns;
  const aggregates = run.report.report?.aggregates ?? [];
  return run.columns.map((c) => {
    if (c.type !== 'money' || c.currency) return c;
    const at = /^v(\d+)$/.exec(c.name);
    const field = at ? aggregates[Number(at[1])]?.field : undefined;
    const currency = fieldOf(kind, field ?? '')?.currency ?? baseCurrency(kind ? [kind] : undefined);
    return currency ? { ...c, currency } : c;
  });
}

export function ReportResult({ run, chart, title, kind, kinds, busy = false, headingOrder = 2 }: ReportResultProps) {
  const charted = run.grouped && chart !== 'table' && run.rows.length > 0;
  const columns = resultColumns(run, kind);
  return (
    <Stack gap="sm">
      {charted && (
        <div className={classes.chartSlot}>
          <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
            <ReportChart chart={chart} columns={columns} rows={run.rows} title={`${title}: ${chart} chart`} headingOrder={headingOrder} />
          </Suspense>
        </div>
      )}
      <Text size="sm" c="dimmed" role="status">
        {resultSummary(run)}
      </Text>
      {run.rows.length > 0 && (
        <DataTable caption={title} columns={columns} rows={run.rows} kind={run.grouped ? undefined : kind} kinds={kinds} busy={busy} />
      )}
    </Stack>
  );
}
