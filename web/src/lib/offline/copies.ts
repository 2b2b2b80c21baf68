/**
 * Copies of the answers a user opened recently, kept on the device so they can be read
 * without a network (issue 38, field use): the record pages, list pages and dashboard of
 * each role, and what those pages need to show them (the kinds, the saved lists).
 *
 * - Every successful answer whose query key a {@link CopyRule} names is stored in
 *   IndexedDB under the signed-in user, with the time it was fetched; each rule keeps its
 *   `keep` newest, so the device holds a bounded set (the 50 records, 20 list answers
 *   opened last, and so on).
 * - When a page needs an answer the app has not got and the browser is offline — or the
 *   call failed for want of a network — the copy, if there is one, is put in its place
 *   with its own fetch time, so the page shows it and {@link isDeviceCopy} can mark it with
 *   its age. A refetch that fails for want of a network leaves the answer shown in place
 *   the same way, not an error. The query refetches when the network is back.
 * - The copies are the user's: they are only ever read for the user signed in, and a
 *   user's copies are deleted from the device when they sign out or someone else signs in.
 *
 * Query keys carry the role (lib/queryKeys), so a copy is only ever shown to the role
 * that fetched it.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { isNetworkFailure } from '../api/errors';
import { useSessionStore } from '../session/store';
import { deleteEntries, deleteUserEntries, deviceUser, getEntry, putEntry, userEntries } from './idb';
import { isOnline } from './online';

/** Which answers are kept, and how many of them. */
export interface CopyRule {
  group: string;
  keep: number;
  matches(key: QueryKey): boolean;
}

/** A kept answer. */
export interface Copy {
  id: string;
  user: string;
  group: string;
  key: QueryKey;
  data: unknown;
  savedAt: number;
}

const recordsPart = (key: QueryKey, at: number) => (key[0] === 'records' ? key[at] : undefined);

/**
 * The app's rules (keys of lib/queryKeys): the 50 record pages and 20 list answers (rows,
 * counts, totals) opened last, and each role's kinds, saved lists and dashboard.
 */
export const COPY_RULES: CopyRule[] = [
  { group: 'records', keep: 50, matches: (key) => recordsPart(key, 2) === 'record' && key[5] === 'detail' },
  { group: 'lists', keep: 20, matches: (key) => recordsPart(key, 2) === 'list' },
  { group: 'pages', keep: 40, matches: (key) => ['kinds', 'listConfigs', 'dashboard'].includes(String(recordsPart(key, 2))) },
];


const copyId = (user: string, key: QueryKey) => `${user}|${JSON.stringify(key)}`;

/**
 * Keeps one answer the query cache does not hold (the role's menu) for the signed-in
 * user, under `key`; one copy per key, deleted with the user's others.
 */
export async function keepCopy(key: QueryKey, data: unknown): Promise<void> {
  const user = deviceUser();
  if (user) await putEntry('copies', { id: copyId(user, key), user, group: 'kept', key, data, savedAt: Date.now() } satisfies Copy);
}

/** The signed-in user's copy under `key` (see {@link keepCopy}), or undefined. */
export async function readCopy<T>(key: QueryKey): Promise<T | undefined> {
  const user = deviceUser();
  return user ? ((await getEntry<Copy>('copies', copyId(user, key)))?.data as T | undefined) : undefined;
}

/** Queries showing a device copy, until their next answer from the server. */
const shownCopies = new WeakSet<Query>();

/** Whether the query's data is a device copy (put in place offline), not an answer of this session. */
export function isDeviceCopy(query: Query | undefined): boolean {
  return !!query && shownCopies.has(query);
}

/**
 * Keeps copies for the query client's answers by `rules`, and puts them in place when the
 * network is missing (see the module's comment). Returns the unsubscribe.
 */
export function keepOfflineCopies(queryClient: QueryClient, rules: CopyRule[] = COPY_RULES): () => void {
  const ruleOf = (key: QueryKey) => rules.find((rule) => rule.matches(key));
  // What is kept per user and group (id → savedAt), read once, for pruning without reading the data.
  let index: { user: string; groups: Map<string, Map<string, number>> } | null = null;

  async function indexOf(user: string) {
    if (index?.user === user) return index.groups;
    const groups = new Map<string, Map<string, number>>();
    for (const copy of await userEntries<Copy>('copies', user)) {
      if (!groups.has(copy.group)) groups.set(copy.group, new Map());
      groups.get(copy.group)!.set(copy.id, copy.savedAt);
    }
    index = { user, groups };
    return groups;
  }

  async function save(query: Query, rule: CopyRule) {
    const user = deviceUser();
    if (!user || query.state.data === undefined) return;
    const copy: Copy = { id: copyId(user, query.queryKey), user, group: rule.group, key: query.queryKey, data: query.state.data, savedAt: query.state.dataUpdatedAt };
    const groups = await indexOf(user);
    await putEntry('copies', copy);
    const kept = groups.get(rule.group) ?? new Map<string, number>();
    groups.set(rule.group, kept);
    kept.set(copy.id, copy.savedAt);
    if (kept.size <= rule.keep) return;
    const oldest = [...kept.entries()].sort((a, b) => b[1] - a[1]).slice(rule.keep).map(([id]) => id);
    for (const id of oldest) kept.delete(id);
    await deleteEntries('copies', oldest);
  }

  async function restore(query: Query) {
    const user = deviceUser();
    if (!user) return;
    if (query.state.data !== undefined) {
      // A failed refetch of an answer shown already (a copy, or this session's): the
      // answer stands, marked with its age, instead of the failure.
      if (query.state.status === 'error') {
        queryClient.setQueryData(query.queryKey, query.state.data, { updatedAt: query.state.dataUpdatedAt });
        shownCopies.add(query);
      }
      return;
    }
    const copy = await getEntry<Copy>('copies', copyId(user, query.queryKey));
    // Still wanted: no answer came meanwhile, and the same user is signed in.
    if (!copy || query.state.data !== undefined || deviceUser() !== user) return;
    queryClient.setQueryData(query.queryKey, copy.data, { updatedAt: copy.savedAt });
    shownCopies.add(query);
  }

  const ignore = () => undefined;
  const unsubscribeCache = queryClient.getQueryCache().subscribe((event) => {
    const rule = ruleOf(event.query.queryKey);
    if (!rule) return;
    if (event.type === 'added' && !isOnline()) {
      void restore(event.query).catch(ignore);
    } else if (event.type === 'updated' && event.action.type === 'success' && !event.action.manual) {
      shownCopies.delete(event.query);
      void save(event.query, rule).catch(ignore);
    } else if (event.type === 'updated' && event.action.type === 'error' && isNetworkFailure(event.action.error)) {
      void restore(event.query).catch(ignore);
    }
  });
  // A user who signs out (or is replaced by another) leaves no copies behind.
  const unsubscribeSession = useSessionStore.subscribe((state, previous) => {
    const before = previous.user?.id;
    if (before === undefined || before === null || state.user?.id === before) return;
    if (index?.user === String(before)) index = null;
    void deleteUserEntries('copies', String(before)).catch(ignore);
  });
  return () => {
    unsubscribeCache();
    unsubscribeSession();
  };
}
