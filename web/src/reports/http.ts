/**
 * Small helpers over the API client shared by the reports, feedback and audit pages:
 * fetching a file as a blob (a CSV export, an attachment) and reading a 422's field
 * errors.
 */
import { api, ApiError, type QueryValue } from '../api';
import { dispositionFilename, type Download } from '../records/api';

/**
 * GETs `path` as a file through the API client (bearer token, role header), with the
 * name the server gives it in `Content-Disposition`. Hand it to `saveDownload`.
 */
export async function fetchDownload(path: string, query: Record<string, QueryValue>, accept = '*/*'): Promise<Download> {
  let filename: string | null = null;
  const blob = await api.get<Blob>(path, {
    query,
    responseType: 'blob',
    headers: { Accept: accept },
    onResponse: (response) => {
      filename = dispositionFilename(response.headers.get('Content-Disposition'));
    },
  });
  return { blob, filename };
}

export interface FieldProblem {
  /** The server's field name, e.g. "name", "report.aggregates[0]", "attachment". */
  field: string;
  message: string;
}

/** The `errors: [{field, message}]` of a 422 problem; [] for any other failure. */
export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.errors)) return [];
  return (error.errors as { field?: unknown; message?: unknown }[])
    .filter((e) => typeof e.message === 'string')
    .map((e) => ({ field: typeof e.field === 'string' ? e.field : '', message: e.message as string }));
}

/** A failure's sentence for the user: the server's message, else the error's. */
export function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
