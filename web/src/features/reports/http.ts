/**
 * Small helpers shared by the reports, feedback and audit pages: reading a failure's
 * field errors and message.
 */
import { ApiError } from '../../lib/api';

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
