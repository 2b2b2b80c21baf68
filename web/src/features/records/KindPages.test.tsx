import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordRoutes } from './routes';
import { useDocumentTitle } from '../../lib/title';
import { useSessionStore } from '../../lib/session/store';
import { recordName, recordPageTitle } from './KindPages';
import { invoiceLines, invoiceRecord, permitRecord, projectRecord, registry } from './kinds.fixture';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { RecordDetail } from './types';

function TitleRoot() {
  useDocumentTitle(undefined);
  return <Outlet />;
}

/** The app's record routes as routes.tsx lays them out, with the not-found page beside them. */
const routes: RouteObject[] = [{ Component: TitleRoot, children: [recordRoutes, { path: '/404', Component: () => <h1>Page not found</h1> }] }];

const records: Record<string, RecordDetail> = { 'project:42': projectRecord, 'invoice:77': invoiceRecord, 'customrecord_permit:5': permitRecord };

let api: FakeApi;

beforeAll(async () => {
  await Promise.all([import('./KindPages'), import('./RecordViewPage'), import('./RecordTabPage'), import('./RecordFormPage'), import('./print/RecordPrintPage')]);
});

beforeEach(() => {
  signIn();
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: registry }));
  api.on('GET /netsuite/portal-record', (url) => {
    const record = records[`${url.searchParams.get('type')}:${url.searchParams.get('id')}`];
    if (!record) return problem(404, 'No such record.');
    if (url.searchParams.get('tab') === 'item') return json({ data: invoiceLines });
    return json({ data: record });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('record routes from the kind registry', () => {
  it('serves a kind the app has never heard of, its account field labelled and formatted', async () => {
    renderRoutes(routes, '/permit/view?id=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Section 404 permit' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Permits' })).toHaveAttribute('href', '/permit/list');
    expect(within(screen.getByLabelText('Key facts')).getByRole('link', { name: 'Wetland restoration' })).toHaveAttribute('href', '/project/view?id=42');
    const fee = within(screen.getByTestId('field-groups')).getByText('Filing fee', { selector: 'dt' });
    expect(fee.nextElementSibling).toHaveTextContent(/^\$2,500\.00$/);
    expect(screen.getByRole('navigation', { name: 'Permit sections' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Section 404 permit · Permit · Portico'));
    expect(api.calls.find((c) => c.path === '/netsuite/portal-record')?.params.get('type')).toBe('customrecord_permit');
  });

  it('sends a kind segment the registry does not have to the not-found page', async () => {
    const { location } = renderRoutes(routes, '/nokind/list');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(location()).toBe('/404');
  });

  it('answers a kind the role may not see with "Not available to your role", not the not-found page', async () => {
    api.on('GET /kinds/routes', () => json({ data: [{ route: 'permit', plural: 'Permits' }, { route: 'payroll', plural: 'Payroll runs' }] }));
    const { location } = renderRoutes(routes, '/payroll/list');
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('Not available to your role');
    expect(refusal).toHaveTextContent('you may not see payroll runs');
    expect(screen.getByRole('heading', { level: 1, name: 'Payroll runs' })).toBeInTheDocument();
    expect(location()).toBe('/payroll/list');
    await waitFor(() => expect(document.title).toBe('Payroll runs · Portico'));
  });

  it('sends a segment no kind has to the not-found page, even with the kinds’ routes at hand', async () => {
    api.on('GET /kinds/routes', () => json({ data: [{ route: 'permit', plural: 'Permits' }] }));
    const { location } = renderRoutes(routes, '/nokind/list');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(location()).toBe('/404');
  });

  it('lands on / after a role switch on a page the new role may not see, never on /404 (SPEC §2, §4)', async () => {
    const other = { ...useSessionStore.getState().currentRole!, id: 2, name: 'Field Lead', permissions: [] };
    api.on('GET /kinds', (_url, init) => json({ data: new Headers(init?.headers).get('X-Role-Id') === '2' ? [] : registry }));
    api.on('GET /kinds/routes', () => json({ data: registry.map((k) => ({ route: k.route, plural: k.plural })) }));
    // The dashboard's loader is slow: the old page sees the new role before / is reached.
    const home: RouteObject = {
      path: '/',
      loader: () => new Promise((resolve) => setTimeout(() => resolve(null), 150)),
      Component: () => <h1>Dashboard</h1>,
    };
    const { router, location } = renderRoutes([{ Component: TitleRoot, children: [recordRoutes, home, { path: '/404', Component: () => <h1>Page not found</h1> }] }], '/permit/list');
    await waitFor(() => expect(document.title).toBe('Permits · Portico'));
    const seen: string[] = [];
    router.subscribe((state) => seen.push(state.location.pathname));
    // performRoleSwitch: the role applied, then to /.
    useSessionStore.getState().setCurrentRole(other);
    await router.navigate('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/');
    expect(seen).not.toContain('/404');
  });

  it('titles a list with the kind’s plural', async () => {
    renderRoutes(routes, '/permit/list');
    await waitFor(() => expect(document.title).toBe('Permits · Portico'));
  });

  it('titles an edit page with the record’s name', async () => {
    renderRoutes(routes, '/project/edit?id=42');
    await waitFor(() => expect(document.title).toBe('Edit Wetland restoration · Project · Portico'));
  });

  it('says so when the registry cannot be read, and tries again', async () => {
    const user = userEvent.setup();
    let fail = true;
    api.on('GET /kinds', () => (fail ? problem(500, 'Database unavailable.') : json({ data: registry })));
    renderRoutes(routes, '/permit/view?id=5');
    expect(await screen.findByText('Database unavailable.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Section 404 permit' })).toBeInTheDocument();
  });
});

describe('document titles of record pages', () => {
  const kind = { label: 'Project', plural: 'Projects' };
  it('name the record and its kind; a list its plural', () => {
    expect(recordPageTitle(kind, { isList: true })).toEqual(['Projects']);
    expect(recordPageTitle(kind, { isView: true }, 'Wetland restoration')).toEqual(['Wetland restoration', 'Project']);
    expect(recordPageTitle(kind, { isView: true })).toEqual(['Project']);
    expect(recordPageTitle(kind, { isEdit: true }, 'Wetland restoration')).toEqual(['Edit Wetland restoration', 'Project']);
    expect(recordPageTitle(kind, { isCreate: true })).toEqual(['New project']);
  });

  it('go by the record’s title, else its number', () => {
    expect(recordName({ title: 'Acme', code: 'C-1' })).toBe('Acme');
    expect(recordName({ title: ' ', code: 'C-1' })).toBe('C-1');
    expect(recordName({ title: '', code: '' })).toBeUndefined();
  });
});
