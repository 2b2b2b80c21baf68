import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../session/store';
import { ApiError, api, apiUrl } from './client';

function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'Content-Type': init.status && init.status >= 400 ? 'application/problem+json' : 'application/json' },
  });
}

describe('api client', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    useSessionStore.getState().clearSession();
  });

  it('builds /api/v1 URLs with a query string, skipping empty values', () => {
    expect(apiUrl('/health')).toBe('/api/v1/health');
    expect(apiUrl('/netsuite/portal', { method: 'search', query: 'acme co', page: 2, none: undefined, nil: null })).toBe(
      '/api/v1/netsuite/portal?method=search&query=acme+co&page=2',
    );
  });

  it('sends the bearer token and role header when signed in, JSON bodies, and parses JSON', async () => {
    useSessionStore.getState().setSession({
      token: 'tok',
      refreshToken: 'ref',
      user: { fullName: 'Ada', roles: [] },
      currentRole: { _id: 'r1', id: '1001', name: 'Admin', type: 'sso', layout: 'L1', permissions: [] },
    });
    fetchMock.mockResolvedValue(jsonResponse({ data: { ok: true } }));

    const answer = await api.post<{ data: { ok: boolean } }>('/things', { a: 1 });

    expect(answer).toEqual({ data: { ok: true } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/things');
    const headers = init?.headers as Record<string, string>;
    expect(init?.method).toBe('POST');
    expect(headers['Authorization']).toBe('Bearer tok');
    expect(headers['X-Role-Id']).toBe('1001');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
  });

  it('sends no credentials headers without a session', async () => {
    fetchMock.mockResolvedValue(jsonResponse({}));
    await api.get('/health');
    const headers = fetchMock.mock.calls[0]![1]?.headers as Record<string, string>;
    expect(headers['Authorization']).toBeUndefined();
    expect(headers['X-Role-Id']).toBeUndefined();
  });

  it('rejects with {name: status, message: detail} for a problem answer', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Role 7 is not yours' }, { status: 403 }),
    );
    const error = await api.get('/secret').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: '403', message: 'Role 7 is not yours', status: 403 });
  });

  it('rejects with the standard status name for an empty error body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 502 }));
    await expect(api.get('/x')).rejects.toMatchObject({ name: '502', message: 'Bad Gateway' });
  });

  it('rejects with the error name when no response arrives', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/x')).rejects.toMatchObject({ name: 'TypeError', message: 'Failed to fetch' });
  });
});
