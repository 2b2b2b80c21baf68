/**
 * Writes beside a record's create/edit form: the change the ERP has not taken (retry or
 * discard it), and what users add to a record — a note (its Notes tab) and a file (its
 * Files tab).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '../../lib/api';
import { productPath } from './api';
import { recordFilesQuery, recordQuery, recordTabQuery } from './queries';
import type { Envelope, FileInfo, TabRows } from './types';
import { recordKey, recordsKey } from '../../lib/queryKeys';

export type WriteAction = 'retry' | 'discard';

/**
 * A record's change that the ERP has not taken: send it again (`retry`) or drop it
 * (`discard`: an edited record goes back to the ERP's version, a new one disappears),
 * through `POST /api/v1/sync/writes/{action}?type=&id=`. Needs the right to edit or
 * create the kind.
 */
export async function sendWriteAction(action: WriteAction, type: string, id: number): Promise<{ action: WriteAction }> {
  return (await api.post<Envelope<{ action: WriteAction }>>(`/sync/writes/${action}`, undefined, { query: { type, id } })).data;
}

/**
 * Retries or discards a record's waiting change. Afterwards (and after a 404: nothing
 * waits any more) the record refetches, and every other record answer of the role is
 * marked stale (lists and lookups show the record's values).
 */
export function useWriteAction(type: string, id: number) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({
      queryKey: recordsKey(),
      predicate: (query) => query.queryKey[2] !== 'kinds',
      refetchType: 'none',
    });
    await queryClient.invalidateQueries({ queryKey: recordKey(type, id) });
  };
  return useMutation<unknown, ApiError, WriteAction>({
    mutationFn: (action) => sendWriteAction(action, type, id),
    onSuccess: refresh,
    onError: (error) => (error.status === 404 ? refresh() : undefined),
  });
}

/** The longest note, in characters (the server's records.MaxNote). */
export const MAX_NOTE = 4000;

/** The largest file a user may attach, in bytes (the server's records.MaxFileSize). */
export const MAX_FILE_SIZE = 5 * 1024 * 1024;

/** The files a user may attach, by name extension (the server's records.FileTypes). */
export const FILE_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'txt', 'csv', 'docx', 'xlsx', 'pptx'] as const;

/** An upload may take a while on a slow connection: up to five minutes. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** The Idempotency-Key header of an addition, when it has one. */
function keyHeader(key: string | undefined): Record<string, string> | undefined {
  return key ? { 'Idempotency-Key': key } : undefined;
}

/**
 * `POST {product}-note?type=&id=` with `{note}`: adds a note to the record and answers its
 * Notes tab as it now is. With the same `key` (Idempotency-Key) and text, a repeat adds
 * nothing and answers the same.
 */
export async function addNote(type: string, id: number, note: string, key?: string): Promise<TabRows> {
  const answer = await api.post<Envelope<TabRows>>(productPath('-note'), { note }, { query: { type, id }, headers: keyHeader(key) });
  return answer.data;
}

/**
 * `POST {product}-file?type=&id=`, multipart with the file in part "file": attaches it to
 * the record and answers it as the Files tab lists it. `onProgress` sees the bytes sent.
 */
export async function uploadFile(type: string, id: number, file: File, key?: string, onProgress?: (sent: number, total: number) => void): Promise<FileInfo> {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await api.post<Envelope<FileInfo>>(productPath('-file'), form, {
    query: { type, id },
    headers: keyHeader(key),
    onUploadProgress: onProgress,
    timeout: UPLOAD_TIMEOUT_MS,
  });
  return answer.data;
}

/**
 * What a file the user picked would be refused for, in the server's words, before it is
 * sent (the server checks again, and also that the content is what the name says).
 */
export function fileProblem(file: File): string | null {
  const ext = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
  if (!(FILE_EXTENSIONS as readonly string[]).includes(ext)) {
    return `${file.name} cannot be attached: attach a file ending in ${FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')}.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_FILE_SIZE) return `${file.name} is larger than 5 MB: attach a file of at most 5 MB.`;
  return null;
}

/** After an addition: the record (its write state) and its history refetch; lists are stale. */
async function afterAddition(queryClient: ReturnType<typeof useQueryClient>, type: string, id: number): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: recordQuery(type, id).queryKey });
  await queryClient.invalidateQueries({ queryKey: recordTabQuery(type, id, 'history').queryKey });
}

export interface NoteArgs {
  note: string;
  key?: string;
}

/** Adds a note to a record; on success its Notes tab shows the answer at once. */
export function useAddNote(type: string, id: number) {
  const queryClient = useQueryClient();
  return useMutation<TabRows, ApiError, NoteArgs>({
    mutationFn: ({ note, key }) => addNote(type, id, note, key),
    onSuccess: async (rows) => {
      queryClient.setQueryData(recordTabQuery(type, id, 'notes').queryKey, rows);
      await afterAddition(queryClient, type, id);
    },
  });
}

export interface UploadArgs {
  file: File;
  key?: string;
  onProgress?: (sent: number, total: number) => void;
}

/** Attaches a file to a record; on success its Files tab refetches. */
export function useUploadFile(type: string, id: number) {
  const queryClient = useQueryClient();
  return useMutation<FileInfo, ApiError, UploadArgs>({
    mutationFn: ({ file, key, onProgress }) => uploadFile(type, id, file, key, onProgress),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: recordFilesQuery(type, id).queryKey });
      await afterAddition(queryClient, type, id);
    },
  });
}
