/**
 * The cookie helper (SPEC §9): a lifetime in days (1 by default), SameSite=Lax, path /,
 * and Secure when the page is served over https. Values are URI-encoded.
 */
export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_COOKIE_DAYS = 1;

export interface CookieJar {
  /** `document.cookie`-like accessor: reading lists all cookies, writing sets one. */
  cookie: string;
}

export interface CookieOptions {
  days?: number;
  /** Defaults to whether the page is on https. */
  secure?: boolean;
  now?: number;
}

function defaultJar(): CookieJar {
  return document;
}

function onHttps(): boolean {
  return typeof location !== 'undefined' && location.protocol === 'https:';
}

/** The value of cookie `name`, or null. */
export function getCookie(name: string, jar: CookieJar = defaultJar()): string | null {
  for (const part of jar.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** Sets cookie `name` for `days` days (1 by default). */
export function setCookie(name: string, value: string, options: CookieOptions = {}, jar: CookieJar = defaultJar()): void {
  const { days = DEFAULT_COOKIE_DAYS, secure = onHttps(), now = Date.now() } = options;
  const expires = new Date(now + days * DAY_MS).toUTCString();
  let cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
  if (secure) cookie += '; Secure';
  jar.cookie = cookie;
}

/** Deletes cookie `name`. */
export function removeCookie(name: string, options: Pick<CookieOptions, 'secure'> = {}, jar: CookieJar = defaultJar()): void {
  const { secure = onHttps() } = options;
  let cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax`;
  if (secure) cookie += '; Secure';
  jar.cookie = cookie;
}
