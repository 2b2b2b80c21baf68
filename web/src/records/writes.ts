/**
 * A record's change that the ERP has not taken: send it again (`retry`) or drop it
 * (`discard`: an edited record goes back to the ERP's version, a new one disappears),
 * through `POST /api/v1/sync/writes/{action}?type=&id=`. Needs the right to edit or
 * create the kind.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '../api';
import { recordKey, recordsKey } from './queries';
import type { Envelope } from './types';

export type WriteAction = 'retry' | 'discard';

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
