import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ListColumn, Row } from '../records';
import { renderWithProviders } from '../../test/render';
import ReportChart, { chartParts } from './ReportChart';

// Invoices by status in a USD company whose Canadian clients are invoiced in CAD: the
// server groups each currency's records apart, the key saying which.
const columns: ListColumn[] = [
  { name: 'key', label: 'Status', type: 'text' },
  { name: 'v0', label: 'Count', type: 'quantity' },
  { name: 'v1', label: 'Sum of Amount', type: 'money', currency: 'USD' },
];
const rows: Row[] = [
  { id: 1, key: 'Open', v0: 120, v1: 2_400_000 },
  { id: 2, key: 'Open (CAD)', _currency: 'CAD', v0: 8, v1: 150_000 },
  { id: 3, key: 'Paid In Full', v0: 900, v1: 18_000_000 },
  { id: 4, key: 'Paid In Full (CAD)', _currency: 'CAD', v0: 60, v1: 1_100_000 },
];

/** Lays each chart out at a phone's width (jsdom has no layout: recharts would draw nothing). */
function phoneWidth() {
  const rect = (width: number, height: number) => ({ x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON: () => ({}) });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('recharts-responsive-container') ? rect(358, 280) : rect(0, 0);
  });
}

describe('a grouped report’s chart', () => {
  it('draws the groups of each currency apart, the base currency first', () => {
    const parts = chartParts('bar', columns, [rows[1]!, rows[0]!, rows[3]!, rows[2]!]);
    expect(parts.map((p) => [p.currency, p.rows.map((r) => r.key)])).toEqual([
      ['USD', ['Open', 'Paid In Full']],
      ['CAD', ['Open (CAD)', 'Paid In Full (CAD)']],
    ]);
    // One currency: one chart.
    expect(chartParts('bar', columns, rows.filter((r) => !r._currency))).toHaveLength(1);
    // Nothing charted is money (a pie shows the first aggregate, a count): one chart.
    expect(chartParts('pie', columns, rows)).toEqual([{ rows }]);
    expect(chartParts('line', columns.slice(0, 2), rows)).toEqual([{ rows }]);
    // Only foreign money: no empty base chart.
    expect(chartParts('bar', columns, rows.filter((r) => r._currency)).map((p) => p.currency)).toEqual(['CAD']);
  });

  it('in several currencies, one chart per currency under its name, its axis in its currency', () => {
    phoneWidth();
    renderWithProviders(<ReportChart chart="bar" columns={columns} rows={rows} title="Invoices by status: bar chart" headingOrder={3} />);
    expect(screen.getByText('These groups are in 2 currencies: one chart for each, on its own scale.')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['US Dollar (USD)', 'Canadian Dollar (CAD)']);

    const [usd, cad] = screen.getAllByTestId('report-chart');
    expect(usd).toHaveAccessibleName('Invoices by status: bar chart, US Dollar (USD)');
    expect(cad).toHaveAccessibleName('Invoices by status: bar chart, Canadian Dollar (CAD)');
    // The money axis (the count has its own, on the right) reads in the chart's currency.
    const labels = (figure: HTMLElement, axis: 'x' | 'y') => [...figure.querySelectorAll(`.recharts-${axis}Axis-tick-labels text`)].map((t) => t.textContent ?? '');
    const money = (figure: HTMLElement) => labels(figure, 'y').filter((t) => t.includes('$'));
    expect(money(usd!).length).toBeGreaterThan(0);
    expect(money(usd!).every((t) => t.startsWith('$'))).toBe(true);
    expect(money(cad!).length).toBeGreaterThan(0);
    expect(money(cad!).every((t) => t.startsWith('CA$'))).toBe(true);
    // Short enough for a phone: no ".0" a round figure does not need ("CA$300K", "$0").
    expect(money(cad!)).toContain('CA$300K');
    expect(money(usd!)).toContain('$0');
    // Each chart's groups are its currency's only.
    expect(labels(cad!, 'x')).toEqual(['Open (CAD)', 'Paid In Full (CAD)']);
    expect(labels(usd!, 'x')).toEqual(['Open', 'Paid In Full']);
  });

  it('in one currency, one chart named by the report, its axis in that currency', () => {
    phoneWidth();
    const usdOnly = rows.filter((r) => !r._currency);
    renderWithProviders(<ReportChart chart="bar" columns={columns} rows={usdOnly} title="Invoices by status: bar chart" />);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    const figure = screen.getByTestId('report-chart');
    expect(figure).toHaveAccessibleName('Invoices by status: bar chart');
    const ticks = [...figure.querySelectorAll('.recharts-yAxis-tick-labels text')].map((t) => t.textContent ?? '');
    expect(ticks.some((t) => /^\$\d/.test(t))).toBe(true);
    expect(ticks.some((t) => t.includes('CA$'))).toBe(false);
  });
});
