import { QueryClient } from '@tanstack/react-query';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { emptySession, useSessionStore } from '../session/store';
import { COPY_RULES, isDeviceCopy, keepOfflineCopies, keepCopy, readCopy, type Copy } from './copies';
import { userEntries } from './idb';

const user = (id: number) => ({ id, name: `User ${id}`, email: `u${id}@example.com` }) as never;

function signIn(id: number) {
  useSessionStore.setState({ ...emptySession, token: 't', user: user(id), currentRole: { id: 3 } as never });
}

const recordKey = (id: number) => ['records', 3, 'record', 'project', id, 'detail'];

async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('offline copies', () => {
  let client: QueryClient;
  let stop: () => void;
  let online: boolean;

  beforeEach(() => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    signIn(7);
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    stop = keepOfflineCopies(client, [{ group: 'records', keep: 2, matches: COPY_RULES[0]!.matches }]);
  });

  afterEach(() => {
    stop();
    client.clear();
    useSessionStore.setState(emptySession);
    vi.unstubAllGlobals();
  });

  it('keeps the newest answers of a rule on the device, and no others', async () => {
    for (const id of [1, 2, 3]) {
      await client.fetchQuery({ queryKey: recordKey(id), queryFn: () => ({ id, title: `Project ${id}` }) });
      await settle();
    }
    await client.fetchQuery({ queryKey: ['records', 3, 'lookup', 'project', 'x'], queryFn: () => [] });
    await settle();
    const kept = await userEntries<Copy>('copies', '7');
    expect(kept.map((c) => (c.data as { id: number }).id).sort()).toEqual([2, 3]);
  });

  it('offline, puts the copy in place of a missing answer, with its time, marked as a copy', async () => {
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => ({ id: 1, title: 'Cedar' }) });
    await settle();
    const fetchedAt = client.getQueryState(recordKey(1))!.dataUpdatedAt;
    client.clear();
    online = false;
    const pending = client.fetchQuery({ queryKey: recordKey(1), queryFn: () => Promise.reject(new Error('never asked')), networkMode: 'online' });
    void pending.catch(() => undefined);
    await settle();
    expect(client.getQueryData(recordKey(1))).toEqual({ id: 1, title: 'Cedar' });
    expect(client.getQueryState(recordKey(1))!.dataUpdatedAt).toBe(fetchedAt);
    expect(isDeviceCopy(client.getQueryCache().find({ queryKey: recordKey(1) }))).toBe(true);
  });

  it('when the server cannot be reached, the copy stands in for the failed answer', async () => {
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => ({ id: 1 }) });
    await settle();
    client.clear();
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => Promise.reject(new ApiError('TypeError', 'Failed to fetch')) }).catch(() => undefined);
    await settle();
    expect(client.getQueryData(recordKey(1))).toEqual({ id: 1 });
    // A refused answer (403) is not a network failure: no copy in its place.
    client.clear();
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => Promise.reject(new ApiError('403', 'Forbidden', 403)) }).catch(() => undefined);
    await settle();
    expect(client.getQueryData(recordKey(1))).toBeUndefined();
  });

  it('a refetch that fails for want of a network leaves the answer shown, marked as a copy, not an error', async () => {
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => ({ id: 1 }) });
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => Promise.reject(new ApiError('TypeError', 'Failed to fetch')), staleTime: 0 }).catch(() => undefined);
    await settle();
    const query = client.getQueryCache().find({ queryKey: recordKey(1) })!;
    expect(query.state).toMatchObject({ status: 'success', error: null, data: { id: 1 } });
    expect(isDeviceCopy(query)).toBe(true);
  });

  it("shows no one another user's copies, and deletes them when the user signs out", async () => {
    await client.fetchQuery({ queryKey: recordKey(1), queryFn: () => ({ id: 1 }) });
    await keepCopy(['menu', 'pm'], [{ text: 'Projects' }]);
    await settle();
    expect(await readCopy(['menu', 'pm'])).toEqual([{ text: 'Projects' }]);
    signIn(8);
    await settle();
    expect(await readCopy(['menu', 'pm'])).toBeUndefined();
    expect(await userEntries('copies', '7')).toEqual([]);
    client.clear();
    online = false;
    void client.fetchQuery({ queryKey: recordKey(1), queryFn: () => new Promise(() => undefined) }).catch(() => undefined);
    await settle();
    expect(client.getQueryData(recordKey(1))).toBeUndefined();
  });
});
