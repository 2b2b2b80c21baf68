import { QueryClient } from '@tanstack/react-query';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialAppState, useAppStore } from '../../../lib/appState';
import { userEntries } from '../../../lib/offline/idb';
import { emptySession, useSessionStore } from '../../../lib/session/store';
import { kindsQuery } from '../queries';
import { fakeApi, json, kinds, problem, signIn, type FakeApi } from '../testing';
import { discardChange, keepChange, sendKept, useOutbox, type QueuedChange } from './outbox';

const edit = { type: 'project', recordId: 7, title: 'Project “Cedar Creek”', input: { fields: { entitystatus: 'Closed' }, version: '2026-11-30T08:00:00Z' } };

describe('changes kept on the device', () => {
  let api: FakeApi;
  let client: QueryClient;
  let online: boolean;

  beforeEach(() => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    api = fakeApi();
    signIn();
    client = new QueryClient();
    client.setQueryData(kindsQuery().queryKey, kinds);
  });

  afterEach(() => {
    useOutbox.setState({ changes: [] });
    useSessionStore.setState(emptySession);
    useAppStore.setState(initialAppState);
    vi.unstubAllGlobals();
  });

  const saves = () => api.calls.filter((c) => c.path === '/netsuite/portal-crud');

  it('keeps an offline save with its key, sends it once when online, and says so', async () => {
    let stored = 0;
    api.on('PUT /netsuite/portal-crud', () => json({ data: { id: 7, title: 'Cedar Creek', version: `v${++stored}` } }));
    const kept = await keepChange({ ...edit, input: { ...edit.input, idempotencyKey: 'key-1' } }, client);
    expect(kept).toMatchObject({ id: 'key-1', user: '1', roleId: 1001, state: 'waiting' });
    expect(useOutbox.getState().changes).toHaveLength(1);
    expect(saves()).toHaveLength(0);

    online = true;
    await Promise.all([sendKept(client), sendKept(client)]);
    expect(saves()).toHaveLength(1);
    expect(saves()[0]!.headers.get('Idempotency-Key')).toBe('key-1');
    expect(saves()[0]!.headers.get('X-Role-Id')).toBe('1001');
    expect(saves()[0]!.body).toEqual({ fields: { entitystatus: 'Closed' }, version: '2026-11-30T08:00:00Z' });
    expect(useOutbox.getState().changes).toEqual([]);
    expect(await userEntries('outbox', '1')).toEqual([]);
    expect(useAppStore.getState().alert?.message).toContain('Project “Cedar Creek”');
  });

  it('keeps a change the server could not be reached for, and marks one it refused with the reason', async () => {
    api.on('PUT /netsuite/portal-crud', () => Promise.reject(new TypeError('Failed to fetch')));
    await keepChange({ ...edit, input: { ...edit.input, idempotencyKey: 'key-2' } }, client);
    online = true;
    await sendKept(client);
    expect(useOutbox.getState().changes.map((c) => c.state)).toEqual(['waiting']);

    api.on('PUT /netsuite/portal-crud', () => problem(422, 'Please correct the highlighted fields.', [{ field: 'entitystatus', message: 'Not a status of projects.' }]));
    await sendKept(client);
    const [failed] = useOutbox.getState().changes as [QueuedChange];
    expect(failed.state).toBe('failed');
    expect(failed.error).toBe('Please correct the highlighted fields. Status: Not a status of projects.');
    // A refused change is not sent again by itself; the user discards it.
    await sendKept(client);
    expect(saves()).toHaveLength(2);
    await discardChange(failed.id);
    expect(await userEntries('outbox', '1')).toEqual([]);
  });
});
