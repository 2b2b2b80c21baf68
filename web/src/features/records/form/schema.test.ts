import { describe, expect, it } from 'vitest';
import type { Kind, KindField, RecordDetail } from '../types';
import { changedFields, fieldError, formFields, formValues, isDirty, MAX_TEXT, recordValues, saveFields, validate } from './schema';

const name: KindField = { name: 'companyname', label: 'Client name', column: 'title', type: 'text', required: true };
const code: KindField = { name: 'entityid', label: 'Client ID', column: 'code', type: 'text' };
const status: KindField = { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Prospect', 'Active'], required: true };
const parent: KindField = { name: 'customer', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer', required: true };
const balance: KindField = { name: 'balance', label: 'Balance', column: 'amount', type: 'money' };
const since: KindField = { name: 'datecreated', label: 'Client since', column: 'occurred_on', type: 'date' };

const kind: Kind = {
  name: 'project',
  route: 'project',
  label: 'Project',
  plural: 'Projects',
  erpType: 'job',
  defaultList: 'x',
  fields: [name, code, status, parent, balance, since],
  tabs: [],
  canCreate: true,
  canEdit: true,
  canApprove: false,
};

describe('fieldError: the server rules, in its words', () => {
  it('requires a value of a required field, of every type', () => {
    expect(fieldError(name, '')).toBe('Client name is required.');
    expect(fieldError(name, '   ')).toBe('Client name is required.');
    expect(fieldError(status, '')).toBe('Status is required.');
    expect(fieldError(parent, null)).toBe('Client is required.');
    expect(fieldError({ ...balance, required: true }, '')).toBe('Balance is required.');
    expect(fieldError(code, '')).toBeNull();
    expect(fieldError(balance, '')).toBeNull();
    expect(fieldError(since, '')).toBeNull();
    expect(fieldError(parent, 7)).toBeNull();
  });

  it('keeps text to 200 characters after trimming, without control characters', () => {
    expect(fieldError(name, 'x'.repeat(MAX_TEXT))).toBeNull();
    expect(fieldError(name, ` ${'x'.repeat(MAX_TEXT)}  `)).toBeNull();
    expect(fieldError(name, 'x'.repeat(MAX_TEXT + 1))).toBe('Keep it under 201 characters.');
    // Characters, not UTF-16 units.
    expect(fieldError(name, '😀'.repeat(MAX_TEXT))).toBeNull();
    expect(fieldError(name, 'a\u0000b')).toBe('Remove the control characters.');
    expect(fieldError(code, 'a\tb')).toBe('Remove the control characters.');
    expect(fieldError(name, 'Acme\n')).toBeNull();
  });

  // Issue 36: bidi controls and other format characters passed in names.
  it('refuses hidden format characters in text, as the server does', () => {
    const hidden = 'Remove the invisible formatting characters (such as direction marks or zero-width spaces): type the text again.';
    for (const bad of ['Acme\u202Edtl', '\u200EAcme', 'Ac\u200Bme', '\uFEFFAcme', 'Ac\u00ADme', 'Acme\u200D', 'a \u200Cb']) {
      expect(fieldError(name, bad)).toBe(hidden);
    }
    for (const good of ['می\u200Cخواهم', '👩\u200D💻 Studio', 'שלום', 'École']) expect(fieldError(name, good)).toBeNull();
  });

  it('takes a status only from its choices', () => {
    expect(fieldError(status, 'Active')).toBeNull();
    expect(fieldError(status, 'Frozen')).toBe('Choose one of: Prospect, Active.');
  });

  it('takes money from 0 with at most two decimals', () => {
    expect(fieldError(balance, 0)).toBeNull();
    expect(fieldError(balance, 1234.5)).toBeNull();
    expect(fieldError(balance, 0.07)).toBeNull();
    expect(fieldError(balance, 1.234)).toBe('Use at most two decimals.');
    expect(fieldError(balance, '1.234')).toBe('Use at most two decimals.');
    expect(fieldError(balance, -5)).toBe('Enter an amount from 0 to 10,000,000,000,000.');
    expect(fieldError(balance, 1e14)).toBe('Enter an amount from 0 to 10,000,000,000,000.');
    expect(fieldError(balance, 'lots')).toBe('Enter a number.');
  });

  it('takes real calendar days written yyyy-mm-dd', () => {
    expect(fieldError(since, '2026-11-22')).toBeNull();
    expect(fieldError(since, '2024-02-29')).toBeNull();
    expect(fieldError(since, '2026-02-30')).toBe('Enter a date as yyyy-mm-dd.');
    expect(fieldError(since, '2026-13-01')).toBe('Enter a date as yyyy-mm-dd.');
    expect(fieldError(since, '22/11/2026')).toBe('Enter a date as yyyy-mm-dd.');
  });
});

describe('form values', () => {
  const record: RecordDetail = {
    id: 42,
    type: 'project',
    title: 'Wetland',
    code: '',
    status: 'Active',
    erpUrl: null,
    groups: [
      {
        label: 'Summary',
        fields: [
          { name: 'companyname', label: 'Client name', type: 'text', value: 'Wetland' },
          { name: 'entityid', label: 'Client ID', type: 'text', value: '' },
          { name: 'entitystatus', label: 'Status', type: 'status', value: 'Active' },
          { name: 'customer', label: 'Client', type: 'reference', value: { id: 7, refName: 'Acme' } },
          { name: 'balance', label: 'Balance', type: 'money', value: null },
          { name: 'datecreated', label: 'Client since', type: 'date', value: '2024-03-07' },
        ],
      },
      { label: 'Details', fields: [{ name: 'memo', label: 'Memo', type: 'text', value: 'x' }] },
    ],
    tabs: [],
    related: [],
  };

  it('come from a record view and go back as the save call wants them', () => {
    const values = formValues(kind, recordValues(record));
    expect(values).toEqual({ companyname: 'Wetland', entityid: '', entitystatus: 'Active', customer: 7, balance: '', datecreated: '2024-03-07' });
    expect(validate(kind, values)).toEqual({});
    expect(saveFields(kind, { ...values, companyname: '  Wetland 2 ', balance: 12.5 })).toEqual({
      companyname: 'Wetland 2',
      entityid: '',
      entitystatus: 'Active',
      customer: 7,
      balance: 12.5,
      datecreated: '2024-03-07',
    });
  });

  it('start empty on a create form, where every required field is asked for', () => {
    const values = formValues(kind);
    expect(saveFields(kind, values)).toEqual({ companyname: '', entityid: '', entitystatus: '', customer: null, balance: null, datecreated: '' });
    expect(Object.keys(validate(kind, values))).toEqual(['companyname', 'entitystatus', 'customer']);
  });

  it('are dirty only when a saved value would change', () => {
    const values = formValues(kind, recordValues(record));
    expect(isDirty(kind, { ...values, companyname: 'Wetland ' }, values)).toBe(false);
    expect(isDirty(kind, { ...values, balance: '' }, values)).toBe(false);
    expect(isDirty(kind, { ...values, balance: 0 }, values)).toBe(true);
    expect(isDirty(kind, { ...values, customer: null }, values)).toBe(true);
  });
});

describe('fields of the other types, and the system’s', () => {
  const percent: KindField = { name: 'percentcomplete', label: '% complete', column: 'fields.percentcomplete', type: 'percent' };
  const acres: KindField = { name: 'acres', label: 'Acres', column: 'fields.acres', type: 'number' };
  const inactive: KindField = { name: 'isinactive', label: 'Inactive', column: 'fields.isinactive', type: 'boolean' };
  const email: KindField = { name: 'email', label: 'Email', column: 'fields.email', type: 'email' };
  const phone: KindField = { name: 'phone', label: 'Phone', column: 'fields.phone', type: 'phone' };
  const url: KindField = { name: 'url', label: 'Website', column: 'fields.url', type: 'url' };
  const manager: KindField = { name: 'projectmanager', label: 'Project manager', column: 'fields.projectmanager', type: 'reference', ref: 'employee' };
  const id: KindField = { ...code, readOnly: true };
  const owed: KindField = { ...balance, readOnly: true };
  const project: Kind = { ...kind, fields: [name, id, owed, percent, acres, inactive, email, phone, url, manager] };

  it('check each type as the server does', () => {
    expect(fieldError(percent, 95)).toBeNull();
    expect(fieldError(percent, 100)).toBeNull();
    expect(fieldError(percent, 100.5)).toBe('Enter a percentage from 0 to 100.');
    expect(fieldError(percent, -1)).toBe('Enter a percentage from 0 to 100.');
    expect(fieldError(percent, 33.333)).toBe('Use at most two decimals.');
    expect(fieldError(acres, -12.125)).toBeNull();
    expect(fieldError(acres, 2e15)).toMatch(/^Enter a number from/);
    expect(fieldError(inactive, true)).toBeNull();
    expect(fieldError(email, 'pete@example.com')).toBeNull();
    expect(fieldError(email, 'pete@localhost')).toBe('Enter an email address such as name@example.com.');
    expect(fieldError(email, 'Pete <pete@example.com>')).toBe('Enter an email address such as name@example.com.');
    expect(fieldError(phone, '+1 (919) 555-0100')).toBeNull();
    expect(fieldError(phone, '919.555.0100 x204')).toBeNull();
    expect(fieldError(phone, '555-01')).toBe('Enter a phone number of 7 to 15 digits, such as +1 919 555 0100.');
    expect(fieldError(url, 'https://example.com/a')).toBeNull();
    expect(fieldError(url, 'example.com')).toBe('Enter a web address starting with https:// or http://.');
    expect(fieldError(url, 'javascript:alert(1)')).toBe('Enter a web address starting with https:// or http://.');
    expect(fieldError(url, '')).toBeNull();
  });

  it('never check nor send the system’s fields, and leave them off a create form', () => {
    const values = formValues(project, { entityid: 'PRJ-9', balance: 12, percentcomplete: 40, isinactive: true, projectmanager: { id: 2, refName: 'Pete' } });
    expect(values).toMatchObject({ entityid: 'PRJ-9', balance: 12, percentcomplete: 40, isinactive: true, projectmanager: 2 });
    expect(validate(project, { ...values, balance: -5, companyname: 'P' })).toEqual({});
    const sent = saveFields(project, { ...values, companyname: 'P' });
    expect(sent).not.toHaveProperty('entityid');
    expect(sent).not.toHaveProperty('balance');
    expect(sent).toMatchObject({ percentcomplete: 40, isinactive: true, projectmanager: 2, acres: null, email: '' });
    // A change of a system field (which the form cannot make) is no change.
    expect(isDirty(project, { ...values, balance: 99 }, values)).toBe(false);
    expect(isDirty(project, { ...values, isinactive: false }, values)).toBe(true);
    expect(formFields(project, true).map((f) => f.name)).not.toContain('entityid');
    expect(formFields(project, false).map((f) => f.name)).toContain('entityid');
  });
});

describe('an edit', () => {
  it('checks and sends only what changed from the values it is compared with', () => {
    const opened = formValues(kind, { companyname: 'x'.repeat(MAX_TEXT + 50), entitystatus: 'Active', customer: { id: 7, refName: 'Acme' } });
    // A long name the record has already (from the ERP) is not the user's to correct.
    expect(validate(kind, opened, opened)).toEqual({});
    expect(validate(kind, opened)).toHaveProperty('companyname');
    const edited = { ...opened, balance: 12.5 };
    expect(changedFields(kind, edited, opened)).toEqual({ balance: 12.5 });
    expect(changedFields(kind, opened, opened)).toEqual({});
  });
});
