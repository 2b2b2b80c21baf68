import { api } from '../api/client';
import { isNetworkFailure, normaliseError } from '../api/errors';
import { keepCopy, readCopy } from '../offline/copies';
import { useSessionStore } from './store';
import type { MenuItem, Role } from './types';

/** SPEC §5: a role without a layout configuration is an error, with this text. */
export const MISSING_LAYOUT = 'Missing layout configuration.';

/** The layout-configuration call (SPEC §7). */
export function layoutPath(layoutId: string): string {
  return `/layout/configurations/${encodeURIComponent(layoutId)}`;
}

function asMenuItems(value: unknown): MenuItem[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item) => ({
      text: typeof item['text'] === 'string' ? item['text'] : '',
      iconCss: typeof item['iconCss'] === 'string' ? item['iconCss'] : '',
      href: typeof item['href'] === 'string' ? item['href'] : '',
      items: asMenuItems(item['items']),
      separator: item['separator'] === true,
    }));
}

/**
 * Fetches the menu tree of a layout configuration. A role without one fails without a
 * call. The menu is kept on the device, and when the server cannot be reached (offline)
 * the kept one answers, so the app offline still has its menu.
 */
export async function fetchMenu(role: Pick<Role, 'layout'>): Promise<MenuItem[]> {
  if (!role.layout) throw new Error(MISSING_LAYOUT);
  const key = ['menu', role.layout];
  try {
    const answer = await api.get<{ data?: { items?: unknown } }>(layoutPath(role.layout));
    const items = asMenuItems(answer?.data?.items);
    void keepCopy(key, items).catch(() => undefined);
    return items;
  } catch (error) {
    const kept = isNetworkFailure(error) ? await readCopy<MenuItem[]>(key).catch(() => undefined) : undefined;
    if (kept) return kept;
    throw error;
  }
}

let generation = 0;

/**
 * SPEC §4 login step 4 (and role switch, session restore): loads the role's layout and
 * builds the menu into the session. Never rejects: a failure leaves an empty menu and the
 * reason in `menuError` (e.g. "Missing layout configuration."). Only the latest call
 * wins, so a quick second role switch cannot be overwritten by the first one's answer.
 */
export async function buildMenu(role: Role): Promise<string | null> {
  const mine = ++generation;
  useSessionStore.getState().setMenu([], null);
  let categories: MenuItem[] = [];
  let error: string | null = null;
  try {
    categories = await fetchMenu(role);
  } catch (e) {
    error = normaliseError(e).message;
  }
  if (mine === generation) useSessionStore.getState().setMenu(categories, error);
  return error;
}
