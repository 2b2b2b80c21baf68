import { useSessionStore } from '../session/store';
import { ApiError, errorFromResponse, normaliseError } from './errors';

/** Every Portico API path starts here. */
export const API_BASE = '/api/v1';

/** Header carrying the current role id on every call (SPEC §6/§7). */
export const ROLE_HEADER = 'X-Role-Id';

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

/**
 * Calls the Portico API. Sends the bearer token and role header when there is a session,
 * JSON by default. Resolves with the parsed body; rejects with an {@link ApiError}
 * (`name` = HTTP status, `message` = the problem's detail or the status text/name).
 *
 * 511 (session expired) handling — redirect to /login?redirect=… — lands with sessions.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, signal, responseType = 'json' } = options;
  const { token, currentRole } = useSessionStore.getState();

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (currentRole?.id) headers[ROLE_HEADER] = currentRole.id;

  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { method, headers, body: payload, signal, credentials: 'same-origin' });
  } catch (error) {
    throw normaliseError(error);
  }

  if (!response.ok) {
    throw errorFromResponse(response.status, response.statusText, await readJson(response));
  }
  if (responseType === 'blob') return (await response.blob()) as T;
  return (await readJson(response)) as T;
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
