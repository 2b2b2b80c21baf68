import { describe, expect, it } from 'vitest';
import { projectKind } from '../records/testing';
import type { ReportRun } from './types';
import { tick } from './ReportChart';
import { resultColumns } from './ReportResult';

const run: ReportRun = {
  report: {
    id: 'r',
    type: 'project',
    name: 'By status',
    columns: [],
    filter: '',
    sort: { field: 'companyname', dir: 'asc' },
    visibility: 'role',
    builtIn: false,
    editable: true,
    report: { groupBy: 'entitystatus', aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'projectedtotal' }], order: 'key', chart: 'bar' },
  },
  grouped: true,
  columns: [
    { name: 'key', label: 'Status', type: 'text' },
    { name: 'v0', label: 'Count', type: 'quantity' },
    { name: 'v1', label: 'Sum of Contract value', type: 'money' },
  ],
  rows: [
    { id: 1, key: 'Active', v0: 3, v1: 1_500_000 },
    { id: 2, key: 'Active (CAD)', _currency: 'CAD', v0: 1, v1: 900 },
  ],
  hasMore: false,
  total: 2,
};

describe('a grouped report’s money', () => {
  it('names the base currency of the field each money aggregate is over', () => {
    const columns = resultColumns(run, { ...projectKind, fields: projectKind.fields.map((f) => (f.type === 'money' ? { ...f, currency: 'EUR' } : f)) });
    expect(columns.map((c) => c.currency)).toEqual([undefined, undefined, 'EUR']);
    // Ungrouped: a list's columns, whose fields the table looks up itself.
    expect(resultColumns({ ...run, grouped: false }, projectKind)).toBe(run.columns);
  });

  it('labels a money axis in the one currency of its rows, and bare when they are in several', () => {
    const [, count, sum] = resultColumns(run, projectKind);
    expect(tick(sum!, run.rows.slice(0, 1))(1_500_000)).toBe('$1.5M');
    expect(tick(sum!, run.rows)(1_500_000)).toBe('1.5M');
    expect(tick(count!, run.rows)(1200)).toBe('1.2K');
  });
});
