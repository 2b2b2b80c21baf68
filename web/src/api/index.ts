export { api, apiRequest, apiUrl, setSessionHooks, API_BASE, ROLE_HEADER, SESSION_EXPIRED_STATUS } from './client';
export type { RequestOptions, QueryValue, SessionHooks } from './client';
export { ApiError, errorFromResponse, normaliseError, statusName } from './errors';
export type { ProblemDetails } from './errors';
export { decodeEntities, decodeEntitiesDeep } from './entities';
