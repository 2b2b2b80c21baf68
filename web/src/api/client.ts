import { useSessionStore } from '../session/store';
import { decodeEntitiesDeep } from './entities';
import { ApiError, errorFromResponse, normaliseError } from './errors';

/** Every Portico API path starts here. */
export const API_BASE = '/api/v1';

/** Header carrying the current role id on every call (SPEC §6/§7). */
export const ROLE_HEADER = 'X-Role-Id';

/** The status with which the server says the session is over (SPEC §8). */
export const SESSION_EXPIRED_STATUS = 511;

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended as a query string; null/undefined values are skipped. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON unless it is FormData/Blob. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Answer type; 'blob' skips JSON parsing (files). */
  responseType?: 'json' | 'blob';
  /**
   * false for the calls that carry their own credentials (sign-in, token refresh,
   * logout): no session headers, no refresh before the call, and a 511 is the caller's.
   */
  auth?: boolean;
  /** Sees the raw response of a successful call (e.g. its Date header). */
  onResponse?: (response: Response) => void;
}

/**
 * How the client cooperates with the session (wired by the session module at start, so
 * this module does not depend on it): refresh an expiring token before a call, try to
 * renew after a 511, and end the session when that fails.
 */
export interface SessionHooks {
  ensureFresh(): Promise<void>;
  recover(tokenUsed: string | null): Promise<'renewed' | 'ended' | 'unavailable'>;
  onSessionExpired(error: ApiError): void;
}

const noHooks: SessionHooks = {
  ensureFresh: async () => {},
  recover: async () => 'ended',
  onSessionExpired: () => {},
};

let hooks: SessionHooks = noHooks;

export function setSessionHooks(next: SessionHooks | null): void {
  hooks = next ?? noHooks;
}

/** Builds `/api/v1{path}?{query}`. `path` must start with '/'. */
export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  let url = API_BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== null && value !== undefined) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function send(path: string, options: RequestOptions, auth: boolean): Promise<{ response: Response; tokenUsed: string | null }> {
  const { method = 'GET', query, body, signal } = options;
  const { token, currentRole } = useSessionStore.getState();

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (auth && token) headers['Authorization'] = `Bearer ${token}`;
  if (auth && currentRole) headers[ROLE_HEADER] = String(currentRole.id);
  Object.assign(headers, options.headers);

  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  try {
    const response = await fetch(apiUrl(path, query), { method, headers, body: payload, signal, credentials: 'same-origin' });
    return { response, tokenUsed: auth ? token : null };
  } catch (error) {
    throw normaliseError(error);
  }
}

/**
 * Calls the Portico API (SPEC §7). Sends the bearer token and the role header, JSON by
 * default; refreshes an expiring token first. Resolves with the parsed body, its strings
 * HTML-entity-decoded (a blob when asked for); rejects with an {@link ApiError} (`name` =
 * HTTP status, `message` = the problem's detail or the status text/name).
 *
 * A 511 means the session is over (SPEC §8): the client first tries to renew the access
 * token (it may just have expired) and repeats the call once; if the session is really
 * over, the session hooks end it, which sends the user to /login?redirect=<path>.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const auth = options.auth ?? true;
  if (auth) await hooks.ensureFresh();

  let { response, tokenUsed } = await send(path, options, auth);

  if (auth && response.status === SESSION_EXPIRED_STATUS) {
    const outcome = await hooks.recover(tokenUsed);
    if (outcome === 'renewed') ({ response, tokenUsed } = await send(path, options, auth));
    if (response.status === SESSION_EXPIRED_STATUS) {
      const error = errorFromResponse(response.status, response.statusText, await readJson(response));
      if (outcome !== 'unavailable') hooks.onSessionExpired(error);
      throw error;
    }
  }

  if (!response.ok) {
    throw errorFromResponse(response.status, response.statusText, await readJson(response));
  }
  options.onResponse?.(response);
  if (options.responseType === 'blob') return (await response.blob()) as T;
  return decodeEntitiesDeep(await readJson(response)) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

export { ApiError };
