export {
  api,
  apiRequest,
  apiUrl,
  setSessionHooks,
  sessionHooks,
  sessionHeaders,
  networkTimeout,
  isMobileDevice,
  API_BASE,
  ROLE_HEADER,
  SESSION_EXPIRED_STATUS,
  DESKTOP_TIMEOUT_MS,
  MOBILE_TIMEOUT_MS,
  TIMEOUT_ERROR,
} from './client';
export type { RequestOptions, QueryValue, SessionHooks } from './client';
export { ApiError, errorFromResponse, normaliseError, statusName } from './errors';
export type { ProblemDetails } from './errors';
export { decodeEntities, decodeEntitiesDeep } from './entities';
