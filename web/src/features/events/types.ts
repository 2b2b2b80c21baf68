/** The events of `GET /api/v1/events` (see the server's contract). */
import type { WriteState } from '../records';

export type RecordAction = 'create' | 'edit' | 'note' | 'file' | 'sync' | 'write-state';

/** Records of a kind changed: the ids, or for a batch (a sync pull) only how many. */
export interface RecordEvent {
  kind: string;
  ids?: number[];
  count?: number;
  action: RecordAction;
  byUserId: number;
  /** Who changed them, as a name to show. */
  by: string;
  at: string;
  /** For `write-state`: where the record's last write stands now. */
  writeState?: WriteState['state'];
}

/** A saved list or report of a kind was created, changed or shared with the role. */
export interface ListEvent {
  type: 'list' | 'report';
  kind: string;
}

/** Someone has the record's edit form open until `until` (RFC 3339; now when closed). */
export interface EditingEvent {
  kind: string;
  id: number;
  userId: number;
  user: string;
  until: string;
}
