/**
 * A grouped report's chart (recharts; this module is loaded lazily, so only the report
 * pages pay for it). Bar and line charts put the group keys on the x axis with one series
 * per aggregate; values of another type than the first aggregate's (a sum of money next
 * to a count) get their own axis on the right. A pie chart shows the first aggregate.
 * Money reads in its row's currency (`_currency`), else its column's (the base currency).
 * Amounts in different currencies are never drawn on one scale: when the groups charted
 * are in several currencies ("Open", "Open (CAD)"), there is one chart per currency, each
 * headed by its currency's name and its money axis in that currency (chartParts).
 * The table under the chart carries the same figures for screen readers.
 */
import { Stack, Text, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { currencyName, currencyOf, formatCompact, formatValue, type ListColumn, type Row } from '../records';
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

/** The rows of one chart: the groups whose money is in `currency` (none when nothing charted is money). */
export interface ChartPart {
  currency?: string;
  rows: Row[];
}

/**
 * The charts a grouped report's rows make: one, unless the money charted (a pie's first
 * aggregate, a bar or line chart's every aggregate) is in several currencies; then one
 * per currency, the base currency's (the money column's) first, the others in the order
 * their groups come.
 */
export function chartParts(chart: ReportChartProps['chart'], columns: readonly ListColumn[], rows: readonly Row[]): ChartPart[] {
  const values = columns.filter((c) => c.name !== 'key');
  const charted = chart === 'pie' ? values.slice(0, 1) : values;
  const money = charted.find((c) => c.type === 'money');
  if (!money) return [{ rows: [...rows] }];
  const parts = new Map<string | undefined, Row[]>();
  if (money.currency) parts.set(money.currency, []);
  for (const row of rows) {
    const currency = currencyOf(row._currency, money.currency);
    const part = parts.get(currency);
    if (part) part.push(row);
    else parts.set(currency, [row]);
  }
  return [...parts].filter(([, part]) => part.length > 0).map(([currency, part]) => ({ currency, rows: part }));
}

export interface ReportChartProps {
  chart: Exclude<ChartType, 'table'>;
  /** `key` then one value column per aggregate (`v0`, `v1`, …). */
  columns: ListColumn[];
  rows: Row[];
  /** The chart's accessible name. */
  title: string;
  /** The level of the headings naming each currency's chart (under the page's or section's heading). */
  headingOrder?: 2 | 3 | 4;
}

export default function ReportChart({ chart, columns, rows, title, headingOrder = 2 }: ReportChartProps) {
  const parts = chartParts(chart, columns, rows);
  if (parts.length <= 1) return <OneChart chart={chart} columns={columns} rows={rows} label={title} height={340} />;
  return (
    <Stack gap="md" data-testid="report-charts">
      <Text size="sm" c="dimmed">
        {`These groups are in ${parts.length} currencies: one chart for each, on its own scale.`}
      </Text>
      {parts.map(({ currency, rows: part }) => {
        const name = currency ? currencyName(currency) : 'Base currency';
        return (
          <section key={currency ?? ''}>
            <Title order={headingOrder} size="h5" mb={4}>
              {name}
            </Title>
            <OneChart chart={chart} columns={columns} rows={part} label={`${title}, ${name}`} height={280} />
          </section>
        );
      })}
    </Stack>
  );
}

function OneChart({ chart, columns, rows, label, height }: { chart: ReportChartProps['chart']; columns: ListColumn[]; rows: Row[]; label: string; height: number }) {
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
    <figure aria-label={label} className={classes.figure} data-testid="report-chart">
      <ResponsiveContainer width="100%" height={height}>
        {body}
      </ResponsiveContainer>
    </figure>
  );
}
