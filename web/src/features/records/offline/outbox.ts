/**
 * Changes kept on the device (issue 38, field use): a record saved while the browser is
 * offline — or whose save could not reach the server — is not lost and not left spinning.
 * It is kept in IndexedDB with the Idempotency-Key its form sent (or would have sent),
 * and sent again when the network is back: at start, when the browser comes online, and
 * every {@link RETRY_MS} while something waits.
 *
 * Never twice: every attempt carries the same key, so a repeat of a save that landed
 * (its answer lost) answers the record instead of writing again (the server keeps keys a
 * day; see internal/records.Edit). Tabs take turns through a Web Lock, so two tabs never
 * send the same change at the same moment.
 *
 * A change is sent as the user who made it, in the role it was made in; it waits while
 * someone else is signed in. It stays on the device through a sign-out (it is the user's
 * work), and its outcome shows in {@link useOutbox}: waiting, sending, or failed with the
 * server's reason (a conflict with a newer version, a value refused) — then the user
 * opens the record to redo it, or discards it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { ApiError, normaliseError } from '../../../lib/api';
import { isNetworkFailure } from '../../../lib/api/errors';
import { useAppStore } from '../../../lib/appState';
import { deleteEntries, deviceUser, putEntry, userEntries } from '../../../lib/offline/idb';
import { isOnline } from '../../../lib/offline/online';
import { recordsKey } from '../../../lib/queryKeys';
import { useSessionStore } from '../../../lib/session/store';
import { saveRecord } from '../api';
import { kindByName } from '../kinds';
import { kindsQuery } from '../queries';
import type { Kind, SaveInput } from '../types';

/** A save kept on the device. Its id is its Idempotency-Key. */
export interface QueuedChange {
  id: string;
  user: string;
  roleId: number;
  /** The record's kind and id (null: a record to create). */
  type: string;
  recordId: number | null;
  /** How the change reads to the user: "Project “Cedar Creek”". */
  title: string;
  input: SaveInput;
  createdAt: number;
  state: 'waiting' | 'sending' | 'failed';
  /** Why the server refused it (state failed). */
  error?: string;
}

/** How often waiting changes are tried again while the browser is online. */
export const RETRY_MS = 30_000;

interface OutboxState {
  changes: QueuedChange[];
}

/** The signed-in user's kept changes, oldest first. */
export const useOutbox = create<OutboxState>(() => ({ changes: [] }));


function show(changes: QueuedChange[]) {
  useOutbox.setState({ changes: [...changes].sort((a, b) => a.createdAt - b.createdAt) });
}

/** Reads the signed-in user's kept changes from the device into {@link useOutbox}. */
export async function loadOutbox(): Promise<QueuedChange[]> {
  const user = deviceUser();
  const changes = user ? await userEntries<QueuedChange>('outbox', user).catch(() => []) : [];
  if (deviceUser() === user) show(changes);
  return changes;
}

async function store(change: QueuedChange) {
  await putEntry('outbox', change);
  show([...useOutbox.getState().changes.filter((c) => c.id !== change.id), change]);
}

/**
 * Keeps a save on the device to send later; `input.idempotencyKey` names it (a fresh one
 * when the form sent none). Rejects when the device cannot keep it (no IndexedDB): the
 * form then keeps the input and says so.
 */
export async function keepChange(change: Omit<QueuedChange, 'id' | 'user' | 'roleId' | 'createdAt' | 'state'>, queryClient: QueryClient): Promise<QueuedChange> {
  const user = deviceUser();
  const roleId = useSessionStore.getState().currentRole?.id;
  if (!user || roleId === undefined) throw new Error('No one is signed in.');
  const id = change.input.idempotencyKey ?? crypto.randomUUID();
  const kept: QueuedChange = { ...change, id, user, roleId, input: { ...change.input, idempotencyKey: id }, createdAt: Date.now(), state: 'waiting' };
  await store(kept);
  if (isOnline()) void sendKept(queryClient);
  return kept;
}

/** Drops a kept change (the user gave it up). */
export async function discardChange(id: string): Promise<void> {
  await deleteEntries('outbox', [id]);
  show(useOutbox.getState().changes.filter((c) => c.id !== id));
}

/** The sends of this page, one after another. */
let turn: Promise<void> = Promise.resolve();

/**
 * Runs `fn` after this page's earlier sends, holding the outbox lock of the browser (Web
 * Locks: other tabs wait too), or without it where there are none.
 */
function exclusively(fn: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  const run = turn.then(() => (locks ? locks.request('portico-outbox', fn) : fn()));
  turn = run.catch(() => undefined);
  return run;
}

/**
 * Sends the user's waiting changes, oldest first, each with its key, until one fails for
 * want of a network. Safe to call at any time and from any tab.
 */
export function sendKept(queryClient: QueryClient): Promise<void> {
  return exclusively(async () => {
    if (!isOnline()) return;
    // Read again under the lock: another tab may have sent some meanwhile.
    for (const change of await loadOutbox()) {
      if (change.state === 'failed' || deviceUser() !== change.user) continue;
      const outcome = await sendOne(change, queryClient);
      if (outcome === 'offline') return;
    }
  });
}

async function sendOne(change: QueuedChange, queryClient: QueryClient): Promise<'sent' | 'failed' | 'offline'> {
  await store({ ...change, state: 'sending' });
  try {
    const saved = await saveRecord(change.type, change.recordId, { ...change.input, roleId: change.roleId });
    await deleteEntries('outbox', [change.id]);
    show(useOutbox.getState().changes.filter((c) => c.id !== change.id));
    await queryClient.invalidateQueries({ queryKey: recordsKey(), predicate: (query) => query.queryKey[2] !== 'kinds' });
    useAppStore.getState().raiseAlert({
      type: 'alert-success',
      title: change.recordId === null ? 'Created' : 'Saved',
      message: `Your change kept on this device is saved: ${change.title}${saved.title ? ` (“${saved.title}”)` : ''}.`,
    });
    return 'sent';
  } catch (e) {
    const error = normaliseError(e);
    // No answer (network, time-out) or a server in trouble: try again later, the key keeps it once.
    if (isNetworkFailure(error) || error.status === 0 || error.status >= 500 || error.status === 511 || error.status === 429) {
      await store({ ...change, state: 'waiting' });
      return isNetworkFailure(error) ? 'offline' : 'failed';
    }
    await store({ ...change, state: 'failed', error: refusal(error, kindByName(queryClient.getQueryData(kindsQuery().queryKey), change.type)) });
    return 'failed';
  }
}

/** The server's reason for refusing a kept change, as sentences naming fields by their labels. */
function refusal(error: ApiError, kind: Kind | undefined): string {
  if (error.status === 409) return 'Someone else saved it meanwhile. Open it, and make your change again on what is saved now.';
  const fields = Array.isArray(error.problem?.errors) ? (error.problem.errors as { field?: string; message?: string }[]) : [];
  const label = (name: string) => kind?.fields.find((f) => f.name === name)?.label ?? name;
  const details = fields.map((f) => (f.field ? `${label(f.field)}: ${f.message ?? ''}` : (f.message ?? ''))).filter(Boolean);
  return [error.message, ...details].join(' ');
}

/**
 * Starts the outbox for the app: loads the user's kept changes (again when another user
 * signs in), and sends them at start, when the browser comes online and every
 * {@link RETRY_MS}. Returns the stop.
 */
export function startOutbox(queryClient: QueryClient): () => void {
  const send = () => void sendKept(queryClient).catch(() => undefined);
  const reload = () => void loadOutbox().then(send);
  reload();
  window.addEventListener('online', send);
  const timer = setInterval(() => {
    if (useOutbox.getState().changes.some((c) => c.state === 'waiting')) send();
  }, RETRY_MS);
  const unsubscribe = useSessionStore.subscribe((state, previous) => {
    if (state.user?.id !== previous.user?.id) reload();
  });
  return () => {
    window.removeEventListener('online', send);
    clearInterval(timer);
    unsubscribe();
  };
}
