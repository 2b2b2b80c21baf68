/** Calls of the reports API, through the app's API client. */
import { api } from '../../lib/api';
import { type Envelope, download, type Download } from '../records';
import type { Report, ReportInput, ReportRun } from './types';

const REPORTS = '/reports';
const RUN = '/reports/run';

/** The reports the caller may see: theirs and their role's, of kinds the role may see. */
export async function fetchReports(signal?: AbortSignal): Promise<Report[]> {
  return (await api.get<Envelope<Report[]>>(REPORTS, { signal })).data;
}

/** Creates a report of `type` (no id) or replaces report `id`; answers the saved report. */
export async function saveReport(type: string, id: string | undefined, input: ReportInput): Promise<Report> {
  const answer = id
    ? await api.put<Envelope<Report>>(REPORTS, input, { query: { type, id } })
    : await api.post<Envelope<Report>>(REPORTS, input, { query: { type } });
  return answer.data;
}

export async function deleteReport(type: string, id: string): Promise<void> {
  await api.delete<unknown>(REPORTS, { query: { type, id } });
}

/** Runs saved report `id`. */
export async function runReport(id: string, signal?: AbortSignal): Promise<ReportRun> {
  return (await api.get<Envelope<ReportRun>>(RUN, { query: { id }, signal })).data;
}

/** Runs an unsaved definition: the builder's live preview. */
export async function previewReport(type: string, input: ReportInput, signal?: AbortSignal): Promise<ReportRun> {
  return (await api.post<Envelope<ReportRun>>(RUN, input, { query: { type }, signal })).data;
}

/** Saved report `id` as CSV: every group, or every matching record. */
export function downloadReportCsv(id: string): Promise<Download> {
  return download(RUN, { id, format: 'csv' }, 'text/csv, */*');
}
