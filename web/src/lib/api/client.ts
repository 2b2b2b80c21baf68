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
  /** Time-out in ms; {@link networkTimeout} by default (30 s desktop, 60 s mobile); 0 for none. */
  timeout?: number;
  /** Sees the raw response of a successful call (e.g. its Date header). */
  onResponse?: (response: Response) => void;
  /**
   * Told how much of the request body has gone out (an upload's progress bar). The call
   * then goes through XMLHttpRequest, the one browser API that reports it.
   */
  onUploadProgress?: (sent: number, total: number) => void;
}

/**
 * fetch through XMLHttpRequest, reporting the upload's progress: the same request and
 * the same Response (status, headers, body), abortable by `init.signal`.
 */
function fetchWithProgress(url: string, init: RequestInit, onProgress: (sent: number, total: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'GET', url);
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'blob';
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const body = xhr.status === 204 || xhr.status === 304 ? null : (xhr.response as Blob);
      resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new TypeError('Failed to fetch'));
    const signal = init.signal;
    const abort = () => xhr.abort();
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was stopped.', 'AbortError'));
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
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

/** The hooks in force, for a caller that makes its own requests (the event stream). */
export function sessionHooks(): SessionHooks {
  return hooks;
}

/** The headers of an authenticated call (bearer token, role) and the token they carry. */
export function sessionHeaders(): { headers: Record<string, string>; token: string | null } {
  const { token, currentRole } = useSessionStore.getState();
  const headers: Record<string, string> = {};
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (currentRole) headers[ROLE_HEADER] = String(currentRole.id);
  return { headers, token };
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

/** SPEC §9 network time-out: 30 s on desktop, 60 s on mobile. */
export const DESKTOP_TIMEOUT_MS = 30_000;
export const MOBILE_TIMEOUT_MS = 60_000;

type NavigatorLike = Pick<Navigator, 'userAgent'> & { userAgentData?: { mobile?: boolean } };

/** Whether this browser runs on a phone or tablet (client hints first, else the user agent). */
export function isMobileDevice(nav: NavigatorLike | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  if (!nav) return false;
  if (typeof nav.userAgentData?.mobile === 'boolean') return nav.userAgentData.mobile;
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile|Silk/i.test(nav.userAgent);
}

/** The time-out of one API call on this device. */
export function networkTimeout(nav?: NavigatorLike): number {
  return isMobileDevice(nav) ? MOBILE_TIMEOUT_MS : DESKTOP_TIMEOUT_MS;
}

/** Name of the error a call rejects with when no answer came in time. */
export const TIMEOUT_ERROR = 'TimeoutError';

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One attempt: the response and its body (parsed JSON, or a Blob when asked and ok). */
interface Answer {
  response: Response;
  body: unknown;
  tokenUsed: string | null;
}

async function send(path: string, options: RequestOptions, auth: boolean): Promise<Answer> {
  const { method = 'GET', query, body, signal } = options;
  const session = auth ? sessionHeaders() : { headers: {}, token: null };
  const headers: Record<string, string> = { Accept: 'application/json', ...session.headers, ...options.headers };

  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  // The time-out covers the whole exchange, body included; the caller's signal still
  // cancels it.
  const timeoutMs = options.timeout ?? networkTimeout();
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('The request timed out.', TIMEOUT_ERROR));
        }, timeoutMs)
      : undefined;
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    const init: RequestInit = { method, headers, body: payload, signal: controller.signal, credentials: 'same-origin' };
    const response = options.onUploadProgress
      ? await fetchWithProgress(apiUrl(path, query), init, options.onUploadProgress)
      : await fetch(apiUrl(path, query), init);
    const answerBody = response.ok && options.responseType === 'blob' ? await response.blob() : await readJson(response);
    return { response, body: answerBody, tokenUsed: session.token };
  } catch (error) {
    if (timedOut) throw new ApiError(TIMEOUT_ERROR, `The server did not answer within ${Math.round(timeoutMs / 1000)} s.`);
    throw normaliseError(error);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/**
 * Calls the Portico API (SPEC §7). Sends the bearer token and the role header, JSON by
 * default; refreshes an expiring token first. Resolves with the parsed body, its strings
 * HTML-entity-decoded (a blob when asked for); rejects with an {@link ApiError} (`name` =
 * HTTP status, `message` = the problem's detail or the status text/name; with no answer,
 * the error's code or name, e.g. "TimeoutError" after 30 s on desktop, 60 s on mobile).
 *
 * A 511 means the session is over (SPEC §8): the client first tries to renew the access
 * token (it may just have expired) and repeats the call once; if the session is really
 * over, the session hooks end it, which sends the user to /login?redirect=<path>.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const auth = options.auth ?? true;
  if (auth) await hooks.ensureFresh();

  let answer = await send(path, options, auth);

  if (auth && answer.response.status === SESSION_EXPIRED_STATUS) {
    const outcome = await hooks.recover(answer.tokenUsed);
    if (outcome === 'renewed') answer = await send(path, options, auth);
    if (answer.response.status === SESSION_EXPIRED_STATUS) {
      const error = errorFromResponse(answer.response.status, answer.response.statusText, answer.body);
      if (outcome !== 'unavailable') hooks.onSessionExpired(error);
      throw error;
    }
  }

  const { response, body } = answer;
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, body);
  options.onResponse?.(response);
  if (options.responseType === 'blob') return body as T;
  return decodeEntitiesDeep(body) as T;
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
