import { describe, expect, it } from 'vitest';
import { clauseProblem, FilterSyntaxError, formatValue, newClause, normalizeFilter, parseFilter, serializeFilter, type Clause } from './filter';
import { checkDraft, draftFor } from './FilterBuilder';
import { projectKind } from './testing';

const fields = projectKind.fields;

describe('filter expressions', () => {
  it('parses conditions joined by and/or into builder rows', () => {
    expect(parseFilter('entitystatus eq Active and startdate ge 2024-01-01 or entitystatus eq "Monitoring"', fields)).toEqual([
      { join: 'and', field: 'entitystatus', op: 'eq', value: 'Active' },
      { join: 'and', field: 'startdate', op: 'ge', value: '2024-01-01' },
      { join: 'or', field: 'entitystatus', op: 'eq', value: 'Monitoring' },
    ]);
  });

  it('round-trips builder rows through the expression unchanged', () => {
    const clauses: Clause[] = [
      { join: 'and', field: 'companyname', op: 'contains', value: 'wetland restoration' },
      { join: 'or', field: 'entitystatus', op: 'ne', value: 'Closed' },
      { join: 'and', field: 'companyname', op: 'startswith', value: 'say "hi" \\ bye' },
      { join: 'and', field: 'projectedtotal', op: 'gt', value: '1500.5' },
      { join: 'or', field: 'companyname', op: 'eq', value: 'and' },
      { join: 'and', field: 'companyname', op: 'eq', value: '' },
    ];
    const text = serializeFilter(clauses);
    expect(text).toBe(
      'companyname contains "wetland restoration" or entitystatus ne Closed and companyname startswith "say \\"hi\\" \\\\ bye" and projectedtotal gt 1500.5 or companyname eq "and" and companyname eq ""',
    );
    expect(parseFilter(text, fields)).toEqual(clauses);
  });

  it('round-trips expressions, normalising only case and spacing', () => {
    for (const text of ['entitystatus eq Active', 'companyname contains "a b" or startdate lt 2020-01-01 and entitystatus ne Closed', '']) {
      expect(serializeFilter(parseFilter(text, fields))).toBe(text);
    }
    expect(normalizeFilter('  entitystatus   EQ Active   AND  companyname contains x ')).toBe('entitystatus eq Active and companyname contains x');
    expect(normalizeFilter('not a filter')).toBe('not a filter');
  });

  it('quotes values only when a bare word would not read back the same', () => {
    expect(formatValue('Active')).toBe('Active');
    expect(formatValue('Under review')).toBe('"Under review"');
    expect(formatValue('OR')).toBe('"OR"');
    expect(formatValue('')).toBe('""');
    expect(formatValue('a"b')).toBe('"a\\"b"');
  });

  it('says which part of a bad expression is wrong', () => {
    const message = (text: string) => {
      try {
        parseFilter(text, fields);
        return 'parsed';
      } catch (error) {
        expect(error).toBeInstanceOf(FilterSyntaxError);
        return (error as Error).message;
      }
    };
    expect(message('nosuch eq 1')).toBe('Unknown field "nosuch".');
    expect(message('entitystatus is Active')).toMatch(/^Unknown operator "is"/);
    expect(message('entitystatus eq')).toBe('Missing a value after "entitystatus eq".');
    expect(message('entitystatus eq Active but x')).toBe('Expected "and" or "or" at character 24, found "but".');
    expect(message('entitystatus eq Active and')).toBe('Missing a condition after "and".');
    expect(message('companyname eq "open')).toMatch(/never closed/);
    expect(message('"companyname" eq x')).toMatch(/Expected a field name/);
  });

  it('checks builder rows against the field types', () => {
    const row = (field: string, op: Clause['op'], value: string) => clauseProblem({ join: 'and', field, op, value }, fields);
    expect(row('', 'eq', 'x')).toBe('Choose a field.');
    expect(row('companyname', 'contains', ' ')).toBe('Enter a value for Project name.');
    expect(row('projectedtotal', 'gt', 'lots')).toMatch(/needs a number/);
    expect(row('startdate', 'ge', '2024-13-45')).toMatch(/needs a date/);
    expect(row('customer', 'eq', 'Acme')).toMatch(/record id/);
    expect(row('entitystatus', 'eq', 'Dormant')).toMatch(/is one of: Proposed/);
    expect(row('entitystatus', 'contains', 'Act')).toMatch(/does not apply/);
    expect(row('entitystatus', 'eq', 'active')).toBeNull();
    expect(row('startdate', 'ge', '2024-02-29')).toBeNull();
    expect(row('customer', 'eq', '42')).toBeNull();
    // The user's own employee record, on a reference to an employee only.
    const approver = [{ name: 'nextapprover', label: 'Next approver', column: 'fields.nextapprover', type: 'reference' as const, ref: 'employee', operators: ['eq' as const, 'ne' as const] }];
    expect(clauseProblem({ join: 'and', field: 'nextapprover', op: 'eq', value: '$me' }, approver)).toBeNull();
    expect(row('customer', 'eq', '$me')).toMatch(/record id/);
  });

  it('starts a new row with the field type’s first operator and value', () => {
    expect(newClause(fields[2])).toEqual({ join: 'and', field: 'entitystatus', op: 'eq', value: 'Proposed' });
    expect(newClause(fields[0], 'or')).toEqual({ join: 'or', field: 'companyname', op: 'contains', value: '' });
  });
});

describe('filter drafts', () => {
  it('opens a parseable filter in the builder and anything else in the text box', () => {
    expect(draftFor('entitystatus eq Active', fields).mode).toBe('builder');
    const bad = draftFor('entitystatus eq', fields);
    expect(bad).toEqual({ mode: 'text', clauses: [], text: 'entitystatus eq' });
  });

  it('gives the expression of a valid draft and the problems of an invalid one', () => {
    const ok = checkDraft(draftFor('entitystatus eq Active', fields), fields);
    expect(ok.expression).toBe('entitystatus eq Active');
    const rows = checkDraft({ mode: 'builder', clauses: [{ join: 'and', field: 'projectedtotal', op: 'gt', value: 'x' }], text: '' }, fields);
    expect(rows.expression).toBeUndefined();
    expect(rows.rowProblems[0]).toMatch(/needs a number/);
    const text = checkDraft({ mode: 'text', clauses: [], text: 'oops' }, fields);
    expect(text.textProblem).toBe('Unknown field "oops".');
  });
});
