/**
 * What each event of the stream does to the app: record and list events mark the cached
 * answers they change stale, and the ones on screen refetch in place (their data stays
 * until the new answer replaces it: no flicker, scroll kept); `editing` events and rows
 * changed by someone else go to the events store.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SseEvent } from './sse';
import { useEventsStore } from './store';
import type { EditingEvent, ListEvent, RecordEvent } from './types';
import { listConfigsKey, recordKey, recordsKey, reportsKey } from '../../lib/queryKeys';

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

/** Refetches the record answers on screen whose key passes `predicate`; marks the others stale. */
function refresh(queryClient: QueryClient, predicate: (key: readonly unknown[]) => boolean): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: recordsKey(), predicate: (q) => predicate(q.queryKey), refetchType: 'active' });
}

/**
 * Records of a kind changed: that kind's lists, counts and lookups; the records named
 * (all records of the kind for a batch that names none); and every record's tabs, which
 * may list them (children, history).
 */
export function invalidateRecords(queryClient: QueryClient, event: Pick<RecordEvent, 'kind' | 'ids'>): Promise<void> {
  const ids = event.ids?.length ? new Set(event.ids) : null;
  const recordAt = recordKey(event.kind, 0).length - 1;
  return refresh(queryClient, (key) => {
    if (key[2] === 'list' || key[2] === 'lookup') return key[3] === event.kind;
    if (key[2] !== 'record') return false;
    if (key[recordAt + 1] === 'tab') return true;
    return key[3] === event.kind && (!ids || ids.has(key[recordAt] as number));
  });
}

/** Applies one event of the stream; `me` is the signed-in user's id (own changes are not marked). */
export function applyEvent(queryClient: QueryClient, event: SseEvent, me: number | undefined): void {
  const store = useEventsStore.getState();
  if (event.event === 'record') {
    const record = parse<RecordEvent>(event.data);
    if (!record?.kind) return;
    void invalidateRecords(queryClient, record);
    if (record.byUserId !== me && record.ids?.length) store.mark(record.kind, record.ids, record.by);
  } else if (event.event === 'list') {
    const list = parse<ListEvent>(event.data);
    if (!list?.kind) return;
    const queryKey = list.type === 'report' ? reportsKey() : listConfigsKey(list.kind);
    void queryClient.invalidateQueries({ queryKey, refetchType: 'active' });
  } else if (event.event === 'editing') {
    const editing = parse<EditingEvent>(event.data);
    if (editing?.kind && editing.userId !== me) store.setEditing(editing);
  } else if (event.event === 'reset') {
    // Events were missed that the server no longer has: everything may have changed.
    void refresh(queryClient, (key) => key[2] !== 'kinds');
  }
}
