/**
 * The little of IndexedDB the app needs, as promises: one database of the app's own
 * ("portico"), its object stores created on first open, and one request per call in its
 * own transaction. Where the browser has no IndexedDB (or refuses it: private modes,
 * storage turned off), every call rejects and callers carry on without a device copy.
 */
import { useSessionStore } from '../session/store';

const DB_NAME = 'portico';
const DB_VERSION = 1;

/** The object stores: keyPath "id" each, with an index on "user". */
export const STORES = ['copies', 'outbox'] as const;
export type StoreName = (typeof STORES)[number];

/** The open database, and the IndexedDB it came from (a test may put in a fresh one). */
let opened: { from: IDBFactory; db: Promise<IDBDatabase> } | null = null;

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/** The app's database, opened (and created or upgraded) once per page. */
export function database(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  if (opened?.from === indexedDB) return opened.db;
  const db = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const created = request.result;
      for (const name of STORES) {
        if (!created.objectStoreNames.contains(name)) created.createObjectStore(name, { keyPath: 'id' }).createIndex('user', 'user');
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
  });
  const mine = { from: indexedDB, db };
  opened = mine;
  // A failed open may succeed later (storage freed): the next call tries again.
  db.catch(() => {
    if (opened === mine) opened = null;
  });
  return db;
}

async function store(name: StoreName, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database()).transaction(name, mode).objectStore(name);
}

/** The entry with this id, or undefined. */
export async function getEntry<T>(name: StoreName, id: string): Promise<T | undefined> {
  return promised((await store(name, 'readonly')).get(id) as IDBRequest<T | undefined>);
}

/** Every entry of a user, in id order. */
export async function userEntries<T>(name: StoreName, user: string): Promise<T[]> {
  return promised((await store(name, 'readonly')).index('user').getAll(user) as IDBRequest<T[]>);
}

/** Stores an entry (replacing the one with its id). */
export async function putEntry<T extends { id: string; user: string }>(name: StoreName, entry: T): Promise<void> {
  await promised((await store(name, 'readwrite')).put(entry));
}

/** Deletes entries by id. */
export async function deleteEntries(name: StoreName, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const s = await store(name, 'readwrite');
  await Promise.all(ids.map((id) => promised(s.delete(id))));
}

/** Deletes every entry of a user (sign-out: nothing of theirs stays on the device). */
export async function deleteUserEntries(name: StoreName, user: string): Promise<void> {
  const s = await store(name, 'readwrite');
  const keys = await promised(s.index('user').getAllKeys(user));
  await Promise.all(keys.map((key) => promised(s.delete(key))));
}

/** The user whose entries are read and written: the signed-in user's id as text, or null. */
export function deviceUser(): string | null {
  const id = useSessionStore.getState().user?.id;
  return id === undefined || id === null ? null : String(id);
}
