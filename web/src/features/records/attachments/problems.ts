import { ApiError } from '../../../lib/api';

/**
 * What went wrong with a note or an upload, in words for the person who sent it: the
 * server's message for the field (`note`, `file`) when it named one, else its detail; a
 * sentence about the connection when no answer came.
 */
export function additionProblem(error: unknown, field: string): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return `Could not reach the server (${error.message}). Check the connection and try again: nothing was lost.`;
    const errors = error.problem?.errors;
    if (Array.isArray(errors)) {
      const mine = (errors as { field?: string; message?: string }[]).find((e) => e.field === field && e.message);
      if (mine?.message) return mine.message;
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
