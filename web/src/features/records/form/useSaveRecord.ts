import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { saveRecord } from '../api';
import { recordNameQuery, recordQuery } from '../queries';
import type { SavedRecord, SaveInput } from '../types';
import { recordsKey } from '../../../lib/queryKeys';

export interface SaveArgs {
  /** The record type. */
  type: string;
  /** The record edited, or null to create one. */
  id: number | null;
  input: SaveInput;
}

/**
 * Saves a create or edit form (`{product}-crud`). Failures are {@link ApiError}s (422 with
 * field errors, 409 with the current values, …) for the form to show.
 *
 * On success the saved record's view goes into the cache (its view page shows at once),
 * and every other record answer of the role is marked stale: lists, counts, lookups, tabs
 * (the history) and other records naming this one refetch when next shown.
 */
export function useSaveRecord() {
  const queryClient = useQueryClient();
  return useMutation<SavedRecord, ApiError, SaveArgs>({
    mutationFn: ({ type, id, input }) => saveRecord(type, id, input),
    onSuccess: async (saved, { type }) => {
      await queryClient.invalidateQueries({
        queryKey: recordsKey(),
        predicate: (query) => query.queryKey[2] !== 'kinds',
        refetchType: 'none',
      });
      queryClient.setQueryData(recordQuery(type, saved.id).queryKey, saved);
      queryClient.setQueryData(recordNameQuery(type, saved.id).queryKey, saved.title);
    },
  });
}
