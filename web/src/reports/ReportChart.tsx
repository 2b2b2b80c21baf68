/**
 * A grouped report's chart (recharts; this module is loaded lazily, so only the report
 * pages pay for it). Bar and line charts put the group keys on the x axis with one series
 * per aggregate; values of another type than the first aggregate's (a sum of money next
 * to a count) get their own axis on the right. A pie chart shows the first aggregate.
 * Money reads in its row's currency (`_currency`), else its column's (the base currency);
 * a money axis shows a currency only when every row's money is in that one.
 * The table under the chart carries the same figures for screen readers.
 */
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { currencyOf, formatCompact, formatValue } from '../records/format';
import type { ListColumn, Row } from '../records/types';
import type { ChartType } from './types';
import classes from './reports.module.css';

/** Series and slice colours (Mantine's blue, teal, orange, grape, red, cyan, lime, indigo, pink, yellow). */
export const CHART_COLORS = ['#228be6', '#12b886', '#fd7e14', '#be4bdb', '#fa5252', '#15aabf', '#82c91e', '#4c6ef5', '#e64980', '#fab005'];

/**
 * An axis's tick labels for values of `column`: short figures, money in the one currency
 * all rows' values are in (none when they are in several).
 */
export function tick(column: ListColumn, rows: readonly Row[]): (value: number) => string {
  const currencies = column.type === 'money' ? new Set(rows.map((r) => currencyOf(r._currency, column.currency))) : new Set<undefined>();
  const currency = currencies.size === 1 ? [...currencies][0] : undefined;
  return (value: number) => formatCompact(value, currency);
}

export interface ReportChartProps {
  chart: Exclude<ChartType, 'table'>;
  /** `key` then one value column per aggregate (`v0`, `v1`, …). */
  columns: ListColumn[];
  rows: Row[];
  /** The chart's accessible name. */
  title: string;
}

export default function ReportChart({ chart, columns, rows, title }: ReportChartProps) {
  const values = columns.filter((c) => c.name !== 'key');
  const first = values[0];
  if (!first) return null;
  const columnOf = new Map(values.map((c) => [c.name, c]));
  const tooltip = (
    <Tooltip
      formatter={(value, name, item) => {
        const column = columnOf.get(String(item.dataKey));
        const row = item.payload as Row | undefined;
        const currency = column?.type === 'money' ? currencyOf(row?._currency, column.currency) : undefined;
        return [formatValue(Number(value), column?.type ?? 'quantity', { currency }), name];
      }}
    />
  );

  let body;
  if (chart === 'pie') {
    body = (
      <PieChart>
        <Pie data={rows} dataKey={first.name} nameKey="key" name={first.label} outerRadius="80%" isAnimationActive={false} label={({ name }) => String(name)}>
          {rows.map((row, i) => (
            <Cell key={`${row.id}`} fill={CHART_COLORS[i % CHART_COLORS.length]} />
          ))}
        </Pie>
        {tooltip}
        <Legend />
      </PieChart>
    );
  } else {
    const right = values.some((c) => c.type !== first.type);
    const axisOf = (c: ListColumn) => (c.type === first.type ? 'left' : 'right');
    const Chart = chart === 'bar' ? BarChart : LineChart;
    body = (
      <Chart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="key" interval="preserveStartEnd" />
        <YAxis yAxisId="left" tickFormatter={tick(first, rows)} width={72} />
        {right && <YAxis yAxisId="right" orientation="right" tickFormatter={tick(values.find((c) => c.type !== first.type)!, rows)} width={72} />}
        {tooltip}
        <Legend />
        {values.map((c, i) =>
          chart === 'bar' ? (
            <Bar key={c.name} dataKey={c.name} name={c.label} yAxisId={axisOf(c)} fill={CHART_COLORS[i % CHART_COLORS.length]} isAnimationActive={false} />
          ) : (
            <Line key={c.name} dataKey={c.name} name={c.label} yAxisId={axisOf(c)} stroke={CHART_COLORS[i % CHART_COLORS.length]} strokeWidth={2} isAnimationActive={false} />
          ),
        )}
      </Chart>
    );
  }
  return (
    <figure aria-label={title} className={classes.figure} data-testid="report-chart">
      <ResponsiveContainer width="100%" height={340}>
        {body}
      </ResponsiveContainer>
    </figure>
  );
}
