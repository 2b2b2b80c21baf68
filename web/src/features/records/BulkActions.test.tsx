import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BulkEditDialog, bulkEditableFields, bulkMoney } from './BulkActions';
import type { Kind } from './types';

const milestones: Kind = {
  name: 'billing',
  route: 'billing',
  label: 'Milestone',
  plural: 'Milestones',
  erpType: 'customrecord_res_billing',
  defaultList: 'customsearch_res_billing_list',
  fields: [
    { name: 'name', label: 'Milestone', column: 'title', type: 'text' },
    { name: 'amount', label: 'Amount', column: 'amount', type: 'money', currency: 'USD' },
  ],
  tabs: [],
  canCreate: false,
  canEdit: true,
  canApprove: false,
};

describe('amounts set in bulk', () => {
  it('are in the selected records’ one currency: their own, else the base', () => {
    expect(bulkMoney(milestones, [{ id: 1, amount: 5 }, { id: 2, amount: null }])).toEqual({ allowed: true, currency: 'USD' });
    expect(bulkMoney(milestones, [{ id: 1, _currency: 'CAD', amount: 5 }, { id: 2, _currency: 'CAD', amount: 7 }])).toEqual({ allowed: true, currency: 'CAD' });
    // A tenant whose base currency is not named: bare amounts, as before.
    const unnamed = { ...milestones, fields: milestones.fields.map((f) => ({ ...f, currency: undefined })) };
    expect(bulkMoney(unnamed, [{ id: 1, amount: 5 }])).toEqual({ allowed: true, currency: undefined });
    // A kind without money: nothing to say.
    expect(bulkMoney({ ...milestones, fields: milestones.fields.slice(0, 1) }, [{ id: 1 }])).toEqual({ allowed: true });
  });

  it('are refused across currencies, or when the rows do not say theirs', () => {
    expect(bulkMoney(milestones, [{ id: 1, amount: 5 }, { id: 2, _currency: 'CAD', amount: 7 }])).toEqual({
      allowed: false,
      why: 'Amounts can be set in bulk only on records in one currency (these are in USD and CAD).',
    });
    expect(bulkMoney(milestones, [{ id: 1, name: 'Deposit' }]).allowed).toBe(false);
    // One row read with an amount is not enough: the other's currency is unknown.
    expect(bulkMoney(milestones, [{ id: 1, amount: 5 }, { id: 2, name: 'Deposit' }]).allowed).toBe(false);
  });

  it('a kind whose only editable field is an amount says why nothing can be edited', () => {
    renderWithProviders(<BulkEditDialog kind={milestones} kinds={[milestones]} rows={[{ id: 1, amount: 5 }, { id: 2, _currency: 'CAD', amount: 7 }]} opened onClose={() => {}} onDone={() => {}} />);
    expect(screen.getByText('Milestones have no field that can be edited here.')).toBeInTheDocument();
    expect(screen.getByText('Amounts can be set in bulk only on records in one currency (these are in USD and CAD).')).toBeInTheDocument();
  });
});

describe('fields set in bulk', () => {
  it('are those the role can choose a value for: a reference only to a kind it sees', () => {
    const projects: Kind = {
      ...milestones,
      name: 'project',
      fields: [
        { name: 'companyname', label: 'Project name', column: 'title', type: 'text' },
        { name: 'projectmanager', label: 'Project manager', column: 'projectmanager', type: 'reference', ref: 'employee' },
        { name: 'customer', label: 'Client', column: 'customer', type: 'reference', ref: 'customer' },
        { name: 'memo', label: 'Memo', column: 'memo', type: 'text' },
        { name: 'created', label: 'Created', column: 'created', type: 'date', readOnly: true },
      ],
    };
    const customers: Kind = { ...milestones, name: 'customer' };
    expect(bulkEditableFields(projects, [projects, customers]).map((f) => f.name)).toEqual(['customer', 'memo']);
  });
});
