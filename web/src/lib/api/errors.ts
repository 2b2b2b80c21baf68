/**
 * Error normalisation (SPEC §8): every failed call is rethrown as an object with `name`
 * and `message`. The name is the HTTP status, or the error's code/name when there was no
 * response. The message is the server's message (the problem `detail`), else the
 * response's status text, else the standard name of the status.
 */

/** RFC 9457 problem details, as the Portico server answers errors. */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: unknown;
  [extension: string]: unknown;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  423: 'Locked',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  511: 'Network Authentication Required',
};

/** The standard reason phrase of an HTTP status, or a generic one for unlisted codes. */
export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Request Error' : `HTTP ${status}`);
}

/** A failed API call. `name` is the HTTP status as text (e.g. "404"), per SPEC §8. */
export class ApiError extends Error {
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** The problem document, when the server sent one. */
  readonly problem?: ProblemDetails;

  constructor(name: string, message: string, status = 0, problem?: ProblemDetails) {
    super(message);
    this.name = name;
    this.status = status;
    this.problem = problem;
  }

  /** Field-level validation errors from the problem's `errors` member, if any. */
  get errors(): unknown {
    return this.problem?.errors;
  }
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Builds the error for an HTTP error response. `body` is the parsed JSON body (or
 * undefined when there was none or it was not JSON).
 */
export function errorFromResponse(status: number, statusText: string, body: unknown): ApiError {
  const problem = typeof body === 'object' && body !== null ? (body as ProblemDetails) : undefined;
  const serverMessage = nonEmpty(problem?.detail)
    ? problem.detail
    : nonEmpty(problem?.['message'])
      ? (problem['message'] as string)
      : undefined;
  const message = serverMessage ?? (nonEmpty(statusText) ? statusText : statusName(status));
  return new ApiError(String(status), message, status, problem);
}

/**
 * Normalises anything thrown while calling the API (network failure, abort, a bug) into
 * an {@link ApiError}. An ApiError passes through unchanged.
 */
export function normaliseError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Duck-typed, not `instanceof Error`: a DOMException (AbortError, TimeoutError) is not
  // an Error in every runtime.
  if (typeof error === 'object' && error !== null && ('name' in error || 'message' in error)) {
    const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
    const errorName = nonEmpty(code) ? code : nonEmpty(name) ? name : 'Error';
    return new ApiError(errorName, nonEmpty(message) ? message : errorName);
  }
  if (typeof error === 'string' && error) return new ApiError('Error', error);
  return new ApiError('Error', 'Unknown error');
}

/**
 * Whether a call failed for want of a network: no answer came at all (the browser could
 * not reach the server), as opposed to an answer, a time-out or a cancel.
 */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0 && error.name === 'TypeError';
}
