import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../lib/session/store';
import { prefetchDashboard } from './prefetch';
import { setAppQueryClient } from '../lib/queryClient';

const role = { _id: 'r', id: 1002, name: 'PM', type: 'staff', layout: 'x', permissions: ['project.view'] };

afterEach(() => {
  setAppQueryClient(null);
  useSessionStore.getState().clearSession();
  vi.unstubAllGlobals();
});

describe('prefetchDashboard (dashboard route loader)', () => {
  it('does nothing without a registered query client or without a session', () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    expect(prefetchDashboard()).toBeNull();
    setAppQueryClient(new QueryClient());
    expect(prefetchDashboard()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('starts fetching the kind registry and then the figures, without waiting', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ data: [] }), { headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    setAppQueryClient(client);
    useSessionStore.getState().setSession({
      token: 't',
      refreshToken: 'r',
      tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 600_000 },
      user: { id: 1, email: '', fullName: 'Pete', roles: [role] },
      currentRole: role,
    });
    expect(prefetchDashboard()).toBeNull();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/v1/kinds');
    await vi.waitFor(() => expect(client.getQueryData(['records', 1002, 'kinds'])).toEqual([]));
  });
});
