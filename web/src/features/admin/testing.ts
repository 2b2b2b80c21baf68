/** A small access file for the Administration pages' tests. */
import { normalise, type AccessFile } from './access';

export const file: AccessFile = normalise({
  tenant: 'acme',
  name: 'Acme',
  layouts: [{ id: 'admin', name: 'Admin', items: [{ text: 'Home', href: '/' }] }],
  roles: [
    { _id: 'role-administrator', id: 1001, name: 'Administrator', type: 'admin', layout: 'admin', permissions: ['access.admin'] },
    { _id: 'role-pm', id: 1002, name: 'Project Manager', type: 'staff', layout: '', permissions: ['invoice.view'], rules: { 'invoice.view': 'job.projectmanager eq $me' } },
  ],
  users: [
    { id: 1, email: 'ada@acme.test', fullName: 'Ada', roles: [1001] },
    { id: 2, email: 'pete@acme.test', fullName: 'Pete', roles: null },
  ],
});
