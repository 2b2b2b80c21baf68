/**
 * What the event stream tells the pages beyond the query cache: whether it is connected,
 * which records someone else changed a moment ago (their rows are marked), and who has
 * which record's edit form open.
 */
import { create } from 'zustand';
import type { EditingEvent } from './types';

/** How long a row changed by someone else stays marked. */
export const MARK_MS = 4_000;

/** The key of a record in the maps below. */
export function recordMarkKey(kind: string, id: number): string {
  return `${kind}:${id}`;
}

export interface EventsState {
  connected: boolean;
  /** Records changed by someone else within {@link MARK_MS}: who changed them. */
  marks: Record<string, { by: string }>;
  /** Who else has each record's edit form open, until their `until` passes (or they close it). */
  editing: Record<string, EditingEvent>;
  setConnected(connected: boolean): void;
  mark(kind: string, ids: number[], by: string): void;
  setEditing(event: EditingEvent): void;
}

export const useEventsStore = create<EventsState>()((set) => ({
  connected: false,
  marks: {},
  editing: {},
  setConnected: (connected) => set({ connected }),
  mark: (kind, ids, by) => {
    // Each mark its own object: a later mark of the same row outlives this one's timer.
    const mark = { by };
    const keys = ids.map((id) => recordMarkKey(kind, id));
    set((s) => ({ marks: { ...s.marks, ...Object.fromEntries(keys.map((k) => [k, mark])) } }));
    setTimeout(() => {
      set((s) => {
        const marks = { ...s.marks };
        for (const key of keys) if (marks[key] === mark) delete marks[key];
        return { marks };
      });
    }, MARK_MS);
  },
  setEditing: (event) => {
    const key = recordMarkKey(event.kind, event.id);
    const drop = () =>
      set((s) => {
        if (s.editing[key] !== event) return s;
        const { [key]: _gone, ...editing } = s.editing;
        return { editing };
      });
    set((s) => ({ editing: { ...s.editing, [key]: event } }));
    const left = Date.parse(event.until) - Date.now();
    if (left > 0) setTimeout(drop, left);
    else drop();
  },
}));
