/** In-app paths, defined once. Later issues add the record kinds' list/view/create/edit paths. */
export const paths = {
  home: '/',
  login: '/login',
  notFound: '/404',
} as const;

/** Query parameter on /login naming where to go after signing in. */
export const REDIRECT_PARAM = 'redirect';

/** `/login?redirect=<target>`; `target` is a full in-app path including its search. */
export function loginPath(target?: string): string {
  if (!target || target === paths.login) return paths.login;
  return `${paths.login}?${new URLSearchParams({ [REDIRECT_PARAM]: target })}`;
}

/**
 * The in-app path to go to after signing in, from the login page's `redirect` parameter.
 * Only same-origin paths are accepted (no `//host`, no `/\host`, no scheme), so the
 * parameter cannot send the user off-site; anything else means home.
 */
export function safeRedirectTarget(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.home;
  if (value === paths.login || value.startsWith(`${paths.login}?`) || value.startsWith(`${paths.login}/`)) return paths.home;
  return value;
}
