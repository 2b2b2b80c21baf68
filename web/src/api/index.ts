export { api, apiRequest, apiUrl, API_BASE, ROLE_HEADER } from './client';
export type { RequestOptions, QueryValue } from './client';
export { ApiError, errorFromResponse, normaliseError, statusName } from './errors';
export type { ProblemDetails } from './errors';
