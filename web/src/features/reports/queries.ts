/**
 * Server state of the report pages. Keys start with the records prefix (the current
 * role), so a role switch never shows another role's reports.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { reportsKey } from '../../lib/queryKeys';
import { deleteReport, fetchReports, previewReport, runReport, saveReport } from './api';
import type { Report, ReportInput } from './types';

/** The caller's reports. */
export function reportsQuery() {
  return queryOptions({ queryKey: [...reportsKey(), 'list'] as const, queryFn: ({ signal }) => fetchReports(signal) });
}

/** A saved report's result. */
export function reportRunQuery(id: string) {
  return queryOptions({ queryKey: [...reportsKey(), 'run', id] as const, queryFn: ({ signal }) => runReport(id, signal) });
}

/** The builder's preview of `input`; the previous result stays up while the next one loads. */
export function reportPreviewQuery(type: string, input: ReportInput | undefined) {
  return queryOptions({
    queryKey: [...reportsKey(), 'preview', type, input] as const,
    queryFn: ({ signal }) => previewReport(type, input!, signal),
    enabled: !!input,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Creates (no id) or replaces a report; every report query refreshes. */
export function useSaveReport() {
  const queryClient = useQueryClient();
  return useMutation<Report, Error, { type: string; id?: string; input: ReportInput }>({
    mutationFn: ({ type, id, input }) => saveReport(type, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey() }),
  });
}

/** Deletes a report; every report query refreshes. */
export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, { type: string; id: string }>({
    mutationFn: ({ type, id }) => deleteReport(type, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey() }),
  });
}
