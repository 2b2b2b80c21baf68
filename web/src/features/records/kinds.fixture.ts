/**
 * Test fixtures shaped like `GET /api/v1/kinds` and `GET …-record`: kinds that declare
 * their document fields (labels, types, currency), one kind the app's code has never
 * heard of (`customrecord_permit` at /permit, with a field the ERP account adds), and
 * records whose answers carry declared and undeclared document fields as the server
 * sends them. The tenant's base currency is USD (every money field names it); the invoice
 * is in euros, as its answer says (`currency`), and so are its lines.
 */
import type { Kind, ListColumn, RecordDetail, TabRows } from './types';

export const projectKind: Kind = {
  name: 'project',
  route: 'project',
  label: 'Project',
  plural: 'Projects',
  erpType: 'job',
  defaultList: 'customsearch_res_project_list',
  fields: [
    { name: 'companyname', label: 'Project name', column: 'title', type: 'text', required: true },
    { name: 'entityid', label: 'Project ID', column: 'code', type: 'text', readOnly: true },
    { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Proposed', 'Active', 'Closed'] },
    { name: 'customer', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer' },
    { name: 'projectedtotal', label: 'Contract value', column: 'amount', type: 'money', currency: 'USD', summable: true },
    { name: 'startdate', label: 'Start date', column: 'occurred_on', type: 'date' },
    { name: 'projectmanager', label: 'Project manager', column: 'fields.projectmanager', type: 'reference', ref: 'employee' },
    { name: 'percentcomplete', label: '% complete', column: 'fields.percentcomplete', type: 'percent' },
    { name: 'projectedenddate', label: 'Projected end', column: 'fields.projectedenddate', type: 'date' },
    { name: 'custentity_res_acres', label: 'Acres', column: 'fields.custentity_res_acres', type: 'quantity', summable: true },
    { name: 'custentity_res_huc', label: 'HUC', column: 'fields.custentity_res_huc', type: 'text' },
    { name: 'isinactive', label: 'Inactive', column: 'fields.isinactive', type: 'boolean' },
    { name: 'custentity_res_site_url', label: 'Site map', column: 'fields.custentity_res_site_url', type: 'url', account: true },
  ],
  tabs: [
    { name: 'billing', label: 'Billing', source: 'custom', kind: 'billing' },
    { name: 'files', label: 'Files', source: 'files' },
    { name: 'notes', label: 'Notes', source: 'sublist' },
  ],
  defaultSort: { field: 'companyname', dir: 'asc' },
  owner: 'projectmanager',
  erpLink: '/app/accounting/project/project.nl?id={id}',
  canCreate: false,
  canEdit: true,
  canApprove: false,
};

export const customerKind: Kind = {
  name: 'customer',
  route: 'customer',
  label: 'Client',
  plural: 'Clients',
  erpType: 'customer',
  defaultList: 'customsearch_res_customer_list',
  fields: [
    { name: 'companyname', label: 'Client name', column: 'title', type: 'text', required: true },
    { name: 'entityid', label: 'Client ID', column: 'code', type: 'text' },
    { name: 'email', label: 'Email', column: 'fields.email', type: 'email' },
    { name: 'phone', label: 'Phone', column: 'fields.phone', type: 'phone' },
  ],
  tabs: [{ name: 'files', label: 'Files', source: 'files' }],
  canCreate: true,
  canEdit: true,
  canApprove: false,
};

export const employeeKind: Kind = {
  name: 'employee',
  route: 'employee',
  label: 'Employee',
  plural: 'Employees',
  erpType: 'employee',
  defaultList: 'customsearch_res_employee_list',
  fields: [{ name: 'entityid', label: 'Name', column: 'title', type: 'text', required: true }],
  tabs: [],
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

export const billingKind: Kind = {
  name: 'billing',
  route: 'billing',
  label: 'Billing',
  plural: 'Billing',
  erpType: 'customrecord_res_billing',
  defaultList: 'customsearch_res_billing_list',
  fields: [
    { name: 'name', label: 'Milestone', column: 'title', type: 'text' },
    { name: 'custrecord_res_bil_amount', label: 'Amount', column: 'amount', type: 'money', currency: 'USD' },
  ],
  tabs: [],
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

export const invoiceKind: Kind = {
  name: 'invoice',
  route: 'invoice',
  label: 'Invoice',
  plural: 'Invoices',
  erpType: 'invoice',
  defaultList: 'customsearch_res_invoice_list',
  fields: [
    { name: 'memo', label: 'Description', column: 'title', type: 'text' },
    { name: 'tranid', label: 'Invoice number', column: 'code', type: 'text', readOnly: true },
    { name: 'status', label: 'Status', column: 'status', type: 'status', choices: ['Open', 'Paid in full', 'Overdue', 'Voided'] },
    { name: 'entity', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer' },
    { name: 'job', label: 'Project', column: 'project_id', type: 'reference', ref: 'project' },
    { name: 'total', label: 'Amount', column: 'amount', type: 'money', currency: 'USD' },
    { name: 'trandate', label: 'Invoice date', column: 'occurred_on', type: 'date' },
    { name: 'duedate', label: 'Due date', column: 'fields.duedate', type: 'date' },
    { name: 'amountremaining', label: 'Amount remaining', column: 'fields.amountremaining', type: 'money', currency: 'USD', readOnly: true },
    { name: 'terms', label: 'Terms', column: 'fields.terms', type: 'text' },
    { name: 'otherrefnum', label: 'PO/reference', column: 'fields.otherrefnum', type: 'text' },
  ],
  tabs: [
    { name: 'item', label: 'Line items', source: 'lines', columns: invoiceLineColumns('USD') },
    { name: 'files', label: 'Files', source: 'files' },
  ],
  defaultSort: { field: 'trandate', dir: 'desc' },
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

/** A kind only the registry knows: its pages need no app change. */
export const permitKind: Kind = {
  name: 'customrecord_permit',
  route: 'permit',
  label: 'Permit',
  plural: 'Permits',
  erpType: 'customrecord_permit',
  defaultList: 'customsearch_permit_list',
  fields: [
    { name: 'name', label: 'Permit', column: 'title', type: 'text', required: true },
    { name: 'custrecord_permit_no', label: 'Permit number', column: 'code', type: 'text' },
    { name: 'custrecord_permit_project', label: 'Project', column: 'project_id', type: 'reference', ref: 'project' },
    { name: 'custrecord_permit_fee', label: 'Filing fee', column: 'fields.custrecord_permit_fee', type: 'money', currency: 'USD', account: true },
  ],
  tabs: [{ name: 'notes', label: 'Notes', source: 'sublist' }],
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

/**
 * A kind whose records go through approval, as `GET /api/v1/kinds` describes it to a role
 * that approves some of them (not in `registry`: tests add it).
 */
export const vendorBillKind: Kind = {
  name: 'vendorbill',
  route: 'vendorbill',
  label: 'Vendor bill',
  plural: 'Vendor bills',
  erpType: 'vendorBill',
  defaultList: 'customsearch_res_vendorbill_list',
  fields: [
    { name: 'memo', label: 'Description', column: 'title', type: 'text', sortable: true },
    { name: 'tranid', label: 'Bill number', column: 'code', type: 'text', readOnly: true, sortable: true },
    { name: 'status', label: 'Status', column: 'status', type: 'status', choices: ['Pending approval', 'Open', 'Paid in full', 'Rejected'], sortable: true },
    { name: 'total', label: 'Amount', column: 'amount', type: 'money', currency: 'USD', summable: true, sortable: true },
    { name: 'trandate', label: 'Bill date', column: 'occurred_on', type: 'date', sortable: true },
    { name: 'approvalstatus', label: 'Approval status', column: 'fields.approvalstatus', type: 'status', choices: ['Pending Approval', 'Approved', 'Rejected'] },
    { name: 'nextapprover', label: 'Next approver', column: 'fields.nextapprover', type: 'reference', ref: 'employee' },
  ],
  tabs: [{ name: 'notes', label: 'Notes', source: 'sublist' }],
  defaultSort: { field: 'trandate', dir: 'desc' },
  canCreate: false,
  canEdit: false,
  approval: {
    status: 'approvalstatus',
    nextApprover: 'nextapprover',
    pending: 'Pending Approval',
    approved: 'Approved',
    rejected: 'Rejected',
    awaiting: 'approvalstatus eq "Pending Approval" and nextapprover eq $me',
  },
  canApprove: true,
};

export const registry: Kind[] = [projectKind, customerKind, employeeKind, billingKind, invoiceKind, permitKind];

/** Project 42 as the record API answers it: promoted fields, then declared, then undeclared document fields. */
export const projectRecord: RecordDetail = {
  id: 42,
  type: 'project',
  title: 'Wetland restoration',
  code: 'PRJ-000042',
  status: 'Active',
  erpUrl: 'https://1234.app.netsuite.com/app/accounting/project/project.nl?id=42',
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'companyname', label: 'Project name', type: 'text', value: 'Wetland restoration' },
        { name: 'entityid', label: 'Project ID', type: 'text', value: 'PRJ-000042' },
        { name: 'entitystatus', label: 'Status', type: 'status', value: 'Active' },
        { name: 'customer', label: 'Client', type: 'reference', value: { id: 7, refName: 'Acme Water' } },
        { name: 'projectedtotal', label: 'Contract value', type: 'money', value: 98000 },
        { name: 'startdate', label: 'Start date', type: 'date', value: '2024-03-07' },
      ],
    },
    {
      label: 'Details',
      fields: [
        { name: 'projectmanager', label: 'Project manager', type: 'reference', value: { id: 2, refName: 'Pete Manager' } },
        { name: 'percentcomplete', label: '% complete', type: 'percent', value: 95 },
        { name: 'projectedenddate', label: 'Projected end', type: 'date', value: '2026-10-01' },
        { name: 'custentity_res_acres', label: 'Acres', type: 'quantity', value: 1.2 },
        { name: 'custentity_res_huc', label: 'HUC', type: 'text', value: '0301020304' },
        { name: 'isinactive', label: 'Inactive', type: 'boolean', value: false },
        { name: 'custentity_res_site_url', label: 'Site map', type: 'url', value: 'javascript:alert(1)' },
        { name: 'custentity_res_latitude', label: 'Latitude', type: 'text', value: 34.123456 },
        { name: 'externalId', label: 'External id', type: 'text', value: 'legacy-42' },
      ],
    },
  ],
  tabs: projectKind.tabs,
  related: [{ type: 'customer', id: 7, name: 'Acme Water' }],
};

export const invoiceRecord: RecordDetail = {
  id: 77,
  type: 'invoice',
  title: 'Monitoring, Wetland restoration',
  code: 'INV-000077',
  status: 'Open',
  erpUrl: null,
  currency: 'EUR',
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'memo', label: 'Description', type: 'text', value: 'Monitoring, Wetland restoration' },
        { name: 'tranid', label: 'Invoice number', type: 'text', value: 'INV-000077' },
        { name: 'status', label: 'Status', type: 'status', value: 'Open' },
        { name: 'entity', label: 'Client', type: 'reference', value: { id: 7, refName: 'Acme Water' } },
        { name: 'job', label: 'Project', type: 'reference', value: { id: 42, refName: 'Wetland restoration' } },
        { name: 'total', label: 'Amount', type: 'money', value: 1250.5 },
        { name: 'trandate', label: 'Invoice date', type: 'date', value: '2026-01-15' },
      ],
    },
    {
      label: 'Details',
      fields: [
        { name: 'duedate', label: 'Due date', type: 'date', value: '2026-02-14' },
        { name: 'amountremaining', label: 'Amount remaining', type: 'money', value: 1250.5 },
        { name: 'terms', label: 'Terms', type: 'text', value: 'Net 30' },
      ],
    },
  ],
  tabs: invoiceKind.tabs,
  related: [
    { type: 'customer', id: 7, name: 'Acme Water' },
    { type: 'project', id: 42, name: 'Wetland restoration' },
  ],
};

/**
 * The invoice's line columns as the registry declares them: `GET /api/v1/kinds` names the
 * base currency on the money ones, the tab's answer none (its lines are in the record's).
 */
function invoiceLineColumns(base?: string): ListColumn[] {
  const money = base ? { currency: base } : {};
  return [
    { name: 'item', label: 'Item', type: 'text' },
    { name: 'description', label: 'Description', type: 'text' },
    { name: 'quantity', label: 'Quantity', type: 'number' },
    { name: 'rate', label: 'Rate', type: 'money', ...money },
    { name: 'amount', label: 'Amount', type: 'money', summable: true, ...money },
  ];
}

/** The invoice's `item` sublist as the record API answers its lines tab. */
export const invoiceLines: TabRows = {
  columns: invoiceLineColumns(),
  rows: [
    { id: 1, item: 'Monitoring', description: 'Quarterly monitoring visit', quantity: 2, rate: 400.25, amount: 800.5 },
    { id: 2, item: 'Design', description: 'Site plan revision', quantity: 1, rate: 450, amount: 450 },
  ],
};

export const permitRecord: RecordDetail = {
  id: 5,
  type: 'customrecord_permit',
  title: 'Section 404 permit',
  code: 'PMT-5',
  status: '',
  erpUrl: null,
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'name', label: 'Permit', type: 'text', value: 'Section 404 permit' },
        { name: 'custrecord_permit_no', label: 'Permit number', type: 'text', value: 'PMT-5' },
        { name: 'custrecord_permit_project', label: 'Project', type: 'reference', value: { id: 42, refName: 'Wetland restoration' } },
      ],
    },
    { label: 'Details', fields: [{ name: 'custrecord_permit_fee', label: 'Filing fee', type: 'money', value: 2500 }] },
  ],
  tabs: permitKind.tabs,
  related: [{ type: 'project', id: 42, name: 'Wetland restoration' }],
};

/** Bill 91, waiting for the signed-in user's approval. */
export const vendorBillRecord: RecordDetail = {
  id: 91,
  type: 'vendorbill',
  title: 'Office chairs',
  code: 'BILL-0091',
  status: 'Pending approval',
  erpUrl: null,
  groups: [
    {
      label: 'Summary',
      fields: [
        { name: 'memo', label: 'Description', type: 'text', value: 'Office chairs' },
        { name: 'tranid', label: 'Bill number', type: 'text', value: 'BILL-0091' },
        { name: 'status', label: 'Status', type: 'status', value: 'Pending approval' },
        { name: 'total', label: 'Amount', type: 'money', value: 1250.5 },
      ],
    },
    {
      label: 'Approval',
      fields: [
        { name: 'approvalstatus', label: 'Approval status', type: 'status', value: 'Pending Approval' },
        { name: 'nextapprover', label: 'Next approver', type: 'reference', value: { id: 2, refName: 'Ada Admin' } },
      ],
    },
  ],
  tabs: vendorBillKind.tabs,
  related: [],
  canApprove: true,
};
