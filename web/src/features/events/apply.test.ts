import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { applyEvent } from './apply';
import { useEventsStore } from './store';
import { listConfigsKey, listPagesKey, recordKey, recordsKey } from '../../lib/queryKeys';

let queryClient: QueryClient;
const fetched: string[] = [];

/** A cached answer under `key`; `active` gives it an observer (a component showing it). */
function seed(key: readonly unknown[], active = false) {
  const name = JSON.stringify(key);
  queryClient.setQueryData(key, 'old');
  if (active) {
    const observer = new QueryObserver(queryClient, { queryKey: key, queryFn: async () => (fetched.push(name), 'new'), staleTime: Infinity });
    observer.subscribe(() => {});
  }
}

const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;

function record(data: object) {
  applyEvent(queryClient, { event: 'record', data: JSON.stringify({ action: 'edit', byUserId: 2, by: 'Pete Manager', at: '', ...data }) }, 1);
}

beforeEach(() => {
  signIn();
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  fetched.length = 0;
  useEventsStore.setState({ marks: {}, editing: {} });
});

afterEach(() => {
  queryClient.clear();
  useSessionStore.getState().clearSession();
  vi.useRealTimers();
});

describe('applyEvent', () => {
  it('refetches the kind’s lists and the records named on screen, keeping their data meanwhile, and leaves the rest', async () => {
    const list = [...listPagesKey('customer'), { type: 'customer' }];
    const count = [...listPagesKey('customer'), 'count', {}];
    const detail = [...recordKey('customer', 7), 'detail'];
    const tab = [...recordKey('project', 3), 'tab', 'notes'];
    const other = [...recordKey('customer', 8), 'detail'];
    const projects = [...listPagesKey('project'), { type: 'project' }];
    const kinds = [...recordsKey(), 'kinds'];
    seed(list, true);
    seed(count);
    seed(detail, true);
    seed(tab);
    seed(other);
    seed(projects);
    seed(kinds);

    record({ kind: 'customer', ids: [7] });

    expect(queryClient.getQueryData(list)).toBe('old');
    await vi.waitFor(() => expect(fetched).toEqual([JSON.stringify(list), JSON.stringify(detail)]));
    await vi.waitFor(() => expect(queryClient.getQueryData(list)).toBe('new'));
    expect([stale(count), stale(tab)]).toEqual([true, true]);
    expect([stale(other), stale(projects), stale(kinds)]).toEqual([false, false, false]);
  });

  it('takes a batch with only a count as a change of every record of the kind', () => {
    const one = [...recordKey('customer', 7), 'detail'];
    const two = [...recordKey('customer', 8), 'name'];
    seed(one);
    seed(two);
    record({ kind: 'customer', count: 12, action: 'sync' });
    expect([stale(one), stale(two)]).toEqual([true, true]);
  });

  it('marks the rows someone else changed for a moment, and not the user’s own', () => {
    vi.useFakeTimers();
    record({ kind: 'customer', ids: [7, 9] });
    record({ kind: 'customer', ids: [11], byUserId: 1, by: 'Ada Admin' });
    expect(useEventsStore.getState().marks).toEqual({ 'customer:7': { by: 'Pete Manager' }, 'customer:9': { by: 'Pete Manager' } });
    vi.advanceTimersByTime(4_000);
    expect(useEventsStore.getState().marks).toEqual({});
  });

  it('keeps who else is editing a record until then, and ignores the user’s own form', () => {
    vi.useFakeTimers();
    const until = new Date(Date.now() + 20_000).toISOString();
    const editing = (userId: number) => ({ event: 'editing', data: JSON.stringify({ kind: 'customer', id: 7, userId, user: 'Pete Manager', until }) });
    applyEvent(queryClient, editing(1), 1);
    expect(useEventsStore.getState().editing).toEqual({});
    applyEvent(queryClient, editing(2), 1);
    expect(useEventsStore.getState().editing['customer:7']?.user).toBe('Pete Manager');
    vi.advanceTimersByTime(20_000);
    expect(useEventsStore.getState().editing).toEqual({});
  });

  it('refreshes the saved lists on a list event, and every record answer on a reset', () => {
    const configs = listConfigsKey('customer');
    const detail = [...recordKey('project', 3), 'detail'];
    const kinds = [...recordsKey(), 'kinds'];
    seed(configs);
    seed(detail);
    seed(kinds);
    applyEvent(queryClient, { event: 'list', data: '{"type":"list","kind":"customer"}' }, 1);
    expect([stale(configs), stale(detail)]).toEqual([true, false]);
    applyEvent(queryClient, { event: 'reset', data: '{}' }, 1);
    expect([stale(detail), stale(kinds)]).toEqual([true, false]);
  });
});
