import { ApiError } from '../../../lib/api';

/**
 * What went wrong with a note, an upload or an approval decision, in words for the person
 * who sent it: the server's message for the field (`note`, `file`, `comment`) when it named one, else its detail; a
 * sentence about the connection when no answer came.
 */
export function additionProblem(error: unknown, field: string): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return `Could not reach the server (${error.message}). Check the connection and try again: nothing was lost.`;
    return fieldMessage(error, field) ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The server's message about `field` when it refused the request over it (a 422 problem's `errors`). */
export function fieldMessage(error: unknown, field: string): string | undefined {
  const errors = error instanceof ApiError ? error.problem?.errors : undefined;
  if (!Array.isArray(errors)) return undefined;
  return (errors as { field?: string; message?: string }[]).find((e) => e.field === field && e.message)?.message || undefined;
}
