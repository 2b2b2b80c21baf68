import { useEffect, useMemo } from 'react';
import { api } from '../../lib/api';
import { recordMarkKey, useEventsStore } from './store';
import type { EditingEvent } from './types';

/** How often an open edit form tells the server it is still open. */
export const EDITING_BEAT_MS = 10_000;

/** Whether the event stream is open. */
export function useEventsConnected(): boolean {
  return useEventsStore((s) => s.connected);
}

/** The rows of `kind` someone else changed a moment ago: record id → who. */
export function useRowMarks(kind: string | undefined): Map<number, string> {
  const marks = useEventsStore((s) => s.marks);
  return useMemo(() => {
    const rows = new Map<number, string>();
    if (!kind) return rows;
    for (const [key, { by }] of Object.entries(marks)) {
      const id = Number(key.slice(kind.length + 1));
      if (key.startsWith(`${kind}:`) && Number.isInteger(id)) rows.set(id, by);
    }
    return rows;
  }, [kind, marks]);
}

/** Someone else who has the record's edit form open now, if anyone. */
export function useEditingBy(kind: string, id: number): EditingEvent | undefined {
  return useEventsStore((s) => s.editing[recordMarkKey(kind, id)]);
}

function sendEditing(method: 'post' | 'delete', kind: string, id: number): void {
  const options = { query: { type: kind, id } };
  const call = method === 'post' ? api.post('/events/editing', undefined, options) : api.delete('/events/editing', options);
  // Only a courtesy to the others: a failure changes nothing here.
  call.catch(() => undefined);
}

/** Tells the others that this record's edit form is open: at once, every 10 s, and when it closes. */
export function useEditingPresence(kind: string, id: number | undefined): void {
  useEffect(() => {
    if (id === undefined) return;
    sendEditing('post', kind, id);
    const timer = setInterval(() => sendEditing('post', kind, id), EDITING_BEAT_MS);
    return () => {
      clearInterval(timer);
      sendEditing('delete', kind, id);
    };
  }, [kind, id]);
}
