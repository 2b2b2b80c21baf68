/**
 * Test support for the record pages: a small fake of the record API behind `fetch`, a
 * kind registry shaped like the server's (a tenant whose base currency is USD), and a
 * memory router with the record routes laid out as the app's route table lays them out.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { theme } from '../../lib/theme';
import { useSessionStore } from '../../lib/session/store';
import type { Role } from '../../lib/session/types';
import type { Kind, Operator } from './types';

export const role: Role = { _id: 'role-admin', id: 1001, name: 'Administrator', type: 'admin', layout: 'admin', permissions: ['lists.edit'] };

export function signIn(): void {
  useSessionStore.getState().setSession({
    token: 'tok',
    refreshToken: 'ref',
    tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 },
    user: { id: 1, email: 'ada@example.com', fullName: 'Ada Admin', roles: [role] },
    currentRole: role,
  });
}

/** A filterable field's operators as the server gives them, by type (records.FieldType.Operators). */
export const TEXT_OPS: Operator[] = ['contains', 'eq', 'ne', 'startswith'];
const VALUE_OPS: Operator[] = ['eq', 'ne'];
export const ORDER_OPS: Operator[] = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'];

export const projectKind: Kind = {
  name: 'project',
  route: 'project',
  label: 'Project',
  plural: 'Projects',
  erpType: 'job',
  defaultList: 'customsearch_res_project_list',
  fields: [
    { name: 'companyname', label: 'Project name', column: 'title', type: 'text', operators: TEXT_OPS },
    { name: 'entityid', label: 'Project ID', column: 'code', type: 'text', operators: TEXT_OPS },
    { name: 'entitystatus', label: 'Status', column: 'status', type: 'status', choices: ['Proposed', 'Planning', 'Active', 'Monitoring', 'Closed'], operators: VALUE_OPS },
    { name: 'customer', label: 'Client', column: 'parent_id', type: 'reference', ref: 'customer', operators: VALUE_OPS },
    { name: 'projectedtotal', label: 'Contract value', column: 'amount', type: 'money', currency: 'USD', operators: ORDER_OPS },
    { name: 'startdate', label: 'Start date', column: 'occurred_on', type: 'date', operators: ORDER_OPS },
  ],
  tabs: [
    { name: 'billing', label: 'Billing', source: 'custom', kind: 'billing' },
    { name: 'files', label: 'Files', source: 'files' },
    { name: 'notes', label: 'Notes', source: 'sublist' },
  ],
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
    { name: 'companyname', label: 'Client name', column: 'title', type: 'text', operators: TEXT_OPS },
    { name: 'entityid', label: 'Client ID', column: 'code', type: 'text', operators: TEXT_OPS },
  ],
  tabs: [{ name: 'files', label: 'Files', source: 'files' }],
  canCreate: true,
  canEdit: true,
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
    { name: 'name', label: 'Milestone', column: 'title', type: 'text', operators: TEXT_OPS },
    { name: 'custrecord_res_bil_amount', label: 'Amount', column: 'amount', type: 'money', currency: 'USD', operators: ORDER_OPS },
  ],
  tabs: [],
  canCreate: false,
  canEdit: false,
  canApprove: false,
};

export const kinds: Kind[] = [projectKind, customerKind, billingKind];

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

export function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' } });
}

export function problem(status: number, detail: string, errors?: { field: string; message: string }[]): Response {
  return json({ type: 'about:blank', title: 'Problem', status, detail, ...(errors ? { errors } : {}) }, status);
}

export interface FakeApi {
  /** Every call: method, path, query, headers and JSON body. */
  calls: { method: string; path: string; params: URLSearchParams; headers: Headers; body?: unknown }[];
  /** Adds or replaces the handler of `METHOD /path` (path after /api/v1). */
  on(route: string, handler: Handler): void;
}

/** Installs a fake `fetch` answering `/api/v1/kinds`, a visit's `POST /me/recent`, and whatever `on` adds. */
export function fakeApi(): FakeApi {
  const handlers = new Map<string, Handler>();
  const api: FakeApi = {
    calls: [],
    on: (route, handler) => void handlers.set(route, handler),
  };
  api.on('GET /kinds', () => json({ data: kinds }));
  // Opening a record notes the visit on the server's recent shelf, as the server does: 204.
  api.on('POST /me/recent', () => new Response(null, { status: 204 }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://portico.test');
      const method = init?.method ?? 'GET';
      const path = url.pathname.replace(/^\/api\/v1/, '');
      api.calls.push({
        method,
        path,
        params: url.searchParams,
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const handler = handlers.get(`${method} ${path}`);
      if (!handler) return problem(404, `No fake for ${method} ${path}`);
      return handler(url, init);
    }),
  );
  return api;
}

function Layout() {
  return <Outlet />;
}

/** Renders `routes` in a memory router at `path`, inside the app's providers. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ Component: Layout, children: routes }], { initialEntries: [path] });
  const view = render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  /** The router's current path and search. */
  const location = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, queryClient, location };
}
