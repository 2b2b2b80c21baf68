import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, normaliseError, statusName } from './errors';

describe('errorFromResponse', () => {
  it('uses the HTTP status as name and the problem detail as message', () => {
    const error = errorFromResponse(404, 'Not Found', {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'Project 42 does not exist',
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe('404');
    expect(error.message).toBe('Project 42 does not exist');
    expect(error.status).toBe(404);
  });

  it('keeps the validation errors of a problem', () => {
    const errors = [{ field: 'email', message: 'required' }];
    const error = errorFromResponse(422, '', { title: 'Unprocessable Content', status: 422, detail: 'Invalid input', errors });
    expect(error.errors).toEqual(errors);
  });

  it('falls back to the status text when there is no detail', () => {
    const error = errorFromResponse(409, 'Conflict here', { title: 'Conflict', status: 409 });
    expect({ name: error.name, message: error.message }).toEqual({ name: '409', message: 'Conflict here' });
  });

  it('falls back to the standard status name without detail or status text (HTTP/2)', () => {
    expect(errorFromResponse(503, '', undefined).message).toBe('Service Unavailable');
    expect(errorFromResponse(429, '', 'not json').message).toBe('Too Many Requests');
    expect(errorFromResponse(400, '', { detail: '   ' }).message).toBe('Bad Request');
  });

  it('knows the catalogue statuses and has a name for others', () => {
    const expected: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      409: 'Conflict',
      422: 'Unprocessable Content',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
      504: 'Gateway Timeout',
    };
    for (const [status, name] of Object.entries(expected)) expect(statusName(Number(status))).toBe(name);
    expect(statusName(599)).toBe('Server Error');
    expect(statusName(418)).toBe('Request Error');
  });
});

describe('normaliseError', () => {
  it('passes ApiErrors through', () => {
    const error = new ApiError('500', 'internal error', 500);
    expect(normaliseError(error)).toBe(error);
  });

  it('uses the error code, else the error name, when there is no response', () => {
    const coded = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(normaliseError(coded)).toMatchObject({ name: 'ECONNRESET', message: 'socket hang up' });
    expect(normaliseError(new TypeError('Failed to fetch'))).toMatchObject({ name: 'TypeError', message: 'Failed to fetch' });
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    expect(normaliseError(abort)).toMatchObject({ name: 'AbortError' });
  });

  it('copes with non-errors', () => {
    expect(normaliseError('boom')).toMatchObject({ name: 'Error', message: 'boom' });
    expect(normaliseError(undefined)).toMatchObject({ name: 'Error', message: 'Unknown error' });
  });
});
