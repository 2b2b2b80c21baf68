import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { projectKind } from '../records/testing';
import { draftFor } from '../records';
import { aggregateLabel, groupableFields, measureFields, newReportForm, reportServerErrors, validateReportForm, withFn, withGroupBy, type ReportForm } from './builder';

const named = (patch: Partial<ReportForm> = {}): ReportForm => ({ ...newReportForm(projectKind), name: 'Projects by status', ...patch });

describe('report builder rules', () => {
  it('offers text, status, reference and date fields to group by, money and quantities to aggregate', () => {
    expect(groupableFields(projectKind).map((f) => f.name)).toEqual(['companyname', 'entityid', 'entitystatus', 'customer', 'startdate']);
    expect(measureFields(projectKind).map((f) => f.name)).toEqual(['projectedtotal']);
  });

  it('accepts a table of records and sends no aggregates', () => {
    const { input, errors } = validateReportForm(named(), projectKind);
    expect(errors).toEqual({});
    expect(input?.report).toEqual({ groupBy: '', aggregates: [], order: 'key', chart: 'table' });
    expect(input?.sort).toEqual({ field: 'companyname', dir: 'asc' });
  });

  it('needs a name, a column and a valid filter', () => {
    const { input, errors } = validateReportForm(named({ name: ' ', columns: [], filter: draftFor('entitystatus eq', projectKind.fields) }), projectKind);
    expect(input).toBeUndefined();
    expect(errors.name).toBe('Give the report a name.');
    expect(errors.columns).toBe('Choose at least one column.');
    expect(errors.filter).toMatch(/Missing a value/);
    expect(validateReportForm(named({ name: 'x'.repeat(81) }), projectKind).errors.name).toMatch(/80 characters/);
  });

  it('needs a group-by field for a chart and for aggregates', () => {
    const { errors } = validateReportForm(named({ chart: 'bar', aggregates: [{ fn: 'count' }] }), projectKind);
    expect(errors.chart).toMatch(/needs a group-by field/);
    expect(errors.aggregates).toBe('Aggregates need a group-by field.');
  });

  it('groups by a non-numeric field with one to five aggregates of money or quantity fields', () => {
    expect(validateReportForm(named({ groupBy: 'projectedtotal', aggregates: [{ fn: 'count' }] }), projectKind).errors.groupBy).toMatch(/text, status, reference or date/);
    expect(validateReportForm(named({ groupBy: 'entitystatus', aggregates: [] }), projectKind).errors.aggregates).toBe('Choose one to 5 aggregates.');
    const six = Array.from({ length: 6 }, () => ({ fn: 'count' as const }));
    expect(validateReportForm(named({ groupBy: 'entitystatus', aggregates: six }), projectKind).errors.aggregates).toBe('Choose one to 5 aggregates.');
    const rows = validateReportForm(
      named({ groupBy: 'entitystatus', aggregates: [{ fn: 'count', field: 'projectedtotal' }, { fn: 'sum', field: 'companyname' }, { fn: 'avg' }, { fn: 'max', field: 'projectedtotal' }] }),
      projectKind,
    ).errors.aggregateRows;
    expect(rows).toEqual({ 0: 'A count takes no field.', 1: 'Choose a money or quantity field.', 2: 'Choose a money or quantity field.' });
  });

  it('builds the body of a grouped report', () => {
    const form = named({ groupBy: 'entitystatus', aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'projectedtotal' }], chart: 'bar', order: 'value', visibility: 'role' });
    expect(validateReportForm(form, projectKind).input).toEqual({
      name: 'Projects by status',
      columns: projectKind.fields.map((f) => f.name),
      filter: '',
      sort: { field: 'companyname', dir: 'asc' },
      visibility: 'role',
      report: { groupBy: 'entitystatus', aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'projectedtotal' }], order: 'value', chart: 'bar' },
    });
  });

  it('starts a grouping with a count and a bar chart; ungrouping makes a table again', () => {
    const grouped = withGroupBy(named(), 'entitystatus');
    expect(grouped).toMatchObject({ groupBy: 'entitystatus', aggregates: [{ fn: 'count' }], chart: 'bar' });
    expect(withGroupBy({ ...grouped, chart: 'pie' }, 'customer')).toMatchObject({ groupBy: 'customer', chart: 'pie' });
    expect(withGroupBy(grouped, '')).toMatchObject({ groupBy: '', aggregates: [], chart: 'table' });
  });

  it('gives a measure a field and a count none', () => {
    expect(withFn({ fn: 'count' }, 'sum', projectKind)).toEqual({ fn: 'sum', field: 'projectedtotal' });
    expect(withFn({ fn: 'sum', field: 'projectedtotal' }, 'count', projectKind)).toEqual({ fn: 'count' });
    expect(aggregateLabel({ fn: 'sum', field: 'projectedtotal' }, projectKind)).toBe('Sum of Contract value');
    expect(aggregateLabel({ fn: 'count' }, projectKind)).toBe('Count');
  });

  it('maps the server’s 422 field errors onto the form', () => {
    const error = new ApiError('422', 'Check the highlighted fields.', 422, {
      errors: [
        { field: 'name', message: 'Give the list a name.' },
        { field: 'report.chart', message: 'Choose a chart.' },
        { field: 'report.aggregates[1]', message: 'sum needs a money or quantity field.' },
        { field: 'report.groupBy', message: 'Group by a text field.' },
        { field: 'sort.field', message: 'Cannot sort.' },
        { field: 'report', message: 'Required.' },
      ],
    });
    expect(reportServerErrors(error)).toEqual({
      name: 'Give the list a name.',
      chart: 'Choose a chart.',
      aggregateRows: { 1: 'sum needs a money or quantity field.' },
      groupBy: 'Group by a text field.',
      sort: 'Cannot sort.',
      form: 'Required.',
    });
    expect(reportServerErrors(new ApiError('403', 'Your role may not do this.', 403))).toEqual({ form: 'Your role may not do this.' });
  });
});
