import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../session/store';
import type { Role, User } from '../session/types';
import {
  ApiError,
  DESKTOP_TIMEOUT_MS,
  MOBILE_TIMEOUT_MS,
  api,
  apiUrl,
  isMobileDevice,
  networkTimeout,
  setSessionHooks,
  type SessionHooks,
} from './client';

function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'Content-Type': init.status && init.status >= 400 ? 'application/problem+json' : 'application/json' },
  });
}

const role: Role = { _id: 'role-admin', id: 1001, name: 'Admin', type: 'admin', layout: 'admin', permissions: [] };
const user: User = { id: 1, email: 'ada@example.com', fullName: 'Ada', roles: [role] };

function signIn(token = 'tok') {
  useSessionStore.getState().setSession({ token, refreshToken: 'ref', user, currentRole: role });
}

function headersOf(call: Parameters<typeof fetch>): Record<string, string> {
  return call[1]?.headers as Record<string, string>;
}

describe('api client', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    setSessionHooks(null);
    useSessionStore.getState().clearSession();
  });

  it('builds /api/v1 URLs with a query string, skipping empty values', () => {
    expect(apiUrl('/health')).toBe('/api/v1/health');
    expect(apiUrl('/netsuite/portal', { method: 'search', query: 'acme co', page: 2, none: undefined, nil: null })).toBe(
      '/api/v1/netsuite/portal?method=search&query=acme+co&page=2',
    );
  });

  it('sends the bearer token and role header when signed in, JSON bodies, and parses JSON', async () => {
    signIn();
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
    const headers = headersOf(fetchMock.mock.calls[0]!);
    expect(headers['Authorization']).toBeUndefined();
    expect(headers['X-Role-Id']).toBeUndefined();
  });

  it('sends no session headers for calls with their own credentials (auth: false)', async () => {
    signIn();
    fetchMock.mockResolvedValue(jsonResponse({ data: {} }));
    const ensureFresh = vi.fn(async () => {});
    setSessionHooks({ ensureFresh, recover: vi.fn(), onSessionExpired: vi.fn() });
    await api.get('/auth/login', { auth: false, query: { idToken: 'x' } });
    const headers = headersOf(fetchMock.mock.calls[0]!);
    expect(headers['Authorization']).toBeUndefined();
    expect(headers['X-Role-Id']).toBeUndefined();
    expect(ensureFresh).not.toHaveBeenCalled();
  });

  it('decodes HTML entities in every string of a JSON answer (SPEC §7)', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ data: { name: 'AT&amp;T &quot;West&quot;', items: ['O&#39;Brien', 'caf&#xE9;', 'a &lt; b'], n: 3, ok: true, none: null } }),
    );
    await expect(api.get('/x')).resolves.toEqual({
      data: { name: 'AT&T "West"', items: ["O'Brien", 'café', 'a < b'], n: 3, ok: true, none: null },
    });
  });

  it('decodes after parsing, so an entity-encoded quote inside a string cannot break the JSON (the &quot; case)', async () => {
    // Decoding the raw text first would turn this into {"name": "say "hi""}: invalid JSON.
    const raw = '{"data":{"name":"say &quot;hi&quot;","note":"5 &lt; 6 &amp;&amp; \\"quoted\\""}}';
    fetchMock.mockResolvedValue(new Response(raw, { headers: { 'Content-Type': 'application/json' } }));
    await expect(api.get('/x')).resolves.toEqual({ data: { name: 'say "hi"', note: '5 < 6 && "quoted"' } });
  });

  it('answers a blob, undecoded, when asked for one', async () => {
    fetchMock.mockResolvedValue(new Response('a &amp; b', { headers: { 'Content-Type': 'text/plain' } }));
    const blob = await api.get<Blob>('/file', { responseType: 'blob' });
    expect(typeof blob.text).toBe('function');
    expect(await blob.text()).toBe('a &amp; b');
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

  describe('time-out (SPEC §9: 30 s desktop, 60 s mobile)', () => {
    /** A server that never answers; the fetch rejects when its signal aborts. */
    function hangingFetch() {
      fetchMock.mockImplementation(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            if (init?.signal?.aborted) reject(init.signal.reason);
            init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
          }),
      );
    }

    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('tells desktop from mobile browsers', () => {
      expect(DESKTOP_TIMEOUT_MS).toBe(30_000);
      expect(MOBILE_TIMEOUT_MS).toBe(60_000);
      const desktop = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' };
      const iphone = { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148' };
      const android = { userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36' };
      expect(isMobileDevice(desktop)).toBe(false);
      expect(isMobileDevice(iphone)).toBe(true);
      expect(isMobileDevice(android)).toBe(true);
      // Client hints win over the user agent string.
      expect(isMobileDevice({ ...desktop, userAgentData: { mobile: true } })).toBe(true);
      expect(isMobileDevice({ ...android, userAgentData: { mobile: false } })).toBe(false);
      expect(networkTimeout(desktop)).toBe(30_000);
      expect(networkTimeout(iphone)).toBe(60_000);
    });

    it('gives up after 30 s on desktop with a TimeoutError', async () => {
      hangingFetch();
      const settled = vi.fn();
      const call = api.get('/slow').catch((e: unknown) => {
        settled(e);
        return e;
      });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(settled).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      const error = await call;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ name: 'TimeoutError', message: 'The server did not answer within 30 s.', status: 0 });
    });

    it('waits 60 s on a mobile browser', async () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148');
      hangingFetch();
      const settled = vi.fn();
      const call = api.get('/slow').catch((e: unknown) => {
        settled(e);
        return e;
      });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(settled).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(await call).toMatchObject({ name: 'TimeoutError', message: 'The server did not answer within 60 s.' });
    });

    it('takes a per-call time-out, and clears its timer once answered', async () => {
      hangingFetch();
      const quick = api.get('/slow', { timeout: 500 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(500);
      expect(await quick).toMatchObject({ name: 'TimeoutError' });

      fetchMock.mockReset();
      fetchMock.mockResolvedValue(jsonResponse({ data: 1 }));
      await expect(api.get('/fast')).resolves.toEqual({ data: 1 });
      expect(vi.getTimerCount()).toBe(0);
    });

    it('still lets the caller cancel, named by the abort', async () => {
      hangingFetch();
      const controller = new AbortController();
      const call = api.get('/slow', { signal: controller.signal }).catch((e: unknown) => e);
      controller.abort();
      expect(await call).toMatchObject({ name: 'AbortError' });
    });
  });

  describe('with the session hooks', () => {
    const expired = () => jsonResponse({ title: 'Network Authentication Required', status: 511, detail: 'Your session has ended.' }, { status: 511 });
    let hooks: { [K in keyof SessionHooks]: ReturnType<typeof vi.fn> };

    beforeEach(() => {
      hooks = { ensureFresh: vi.fn(async () => {}), recover: vi.fn(async () => 'ended'), onSessionExpired: vi.fn() };
      setSessionHooks(hooks as unknown as SessionHooks);
      signIn('old');
    });

    it('refreshes an expiring token before the call', async () => {
      hooks.ensureFresh.mockImplementation(async () => {
        useSessionStore.getState().setTokens('new', 'ref2', { issuedAt: 0, expiresAt: Date.now() + 60_000 });
      });
      fetchMock.mockResolvedValue(jsonResponse({}));
      await api.get('/x');
      expect(hooks.ensureFresh).toHaveBeenCalledOnce();
      expect(headersOf(fetchMock.mock.calls[0]!)['Authorization']).toBe('Bearer new');
    });

    it('on 511 renews the token and repeats the call once', async () => {
      hooks.recover.mockImplementation(async () => {
        useSessionStore.getState().setTokens('renewed', 'ref2', { issuedAt: 0, expiresAt: Date.now() + 60_000 });
        return 'renewed';
      });
      fetchMock.mockResolvedValueOnce(expired()).mockResolvedValueOnce(jsonResponse({ data: 1 }));
      await expect(api.get('/x')).resolves.toEqual({ data: 1 });
      expect(hooks.recover).toHaveBeenCalledWith('old');
      expect(headersOf(fetchMock.mock.calls[1]!)['Authorization']).toBe('Bearer renewed');
      expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    });

    it('on 511 with the session over, ends it and rejects with the 511', async () => {
      fetchMock.mockResolvedValue(expired());
      const error = await api.get('/x').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: '511', status: 511, message: 'Your session has ended.' });
      expect(hooks.onSessionExpired).toHaveBeenCalledOnce();
      expect(fetchMock).toHaveBeenCalledOnce();
    });

    it('on 511 after a renewal, still ends the session', async () => {
      hooks.recover.mockResolvedValue('renewed');
      fetchMock.mockImplementation(async () => expired());
      await expect(api.get('/x')).rejects.toMatchObject({ status: 511 });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(hooks.onSessionExpired).toHaveBeenCalledOnce();
    });

    it('on 511 while the refresh cannot be tried (offline), rejects without ending the session', async () => {
      hooks.recover.mockResolvedValue('unavailable');
      fetchMock.mockResolvedValue(expired());
      await expect(api.get('/x')).rejects.toMatchObject({ status: 511 });
      expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    });

    it('leaves a 511 on a call with its own credentials to the caller', async () => {
      fetchMock.mockResolvedValue(expired());
      await expect(api.post('/auth/refresh', { refreshToken: 'r' }, { auth: false })).rejects.toMatchObject({ status: 511 });
      expect(hooks.recover).not.toHaveBeenCalled();
      expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    });

    it('stops before the call when the refresh ended the session', async () => {
      hooks.ensureFresh.mockRejectedValue(new ApiError('511', 'Your session has ended.', 511));
      await expect(api.get('/x')).rejects.toMatchObject({ status: 511 });
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});
