import type { Kind, KindTab } from '../types';
import { AddNote } from './AddNote';
import { UploadFile } from './UploadFile';

/**
 * What a user may add on a record's tab, above its rows: a note on the Notes tab, a file
 * on the Files tab — for a role that may edit the kind (the server asks the same).
 */
export function TabAdditions({ kind, id, tab }: { kind: Kind; id: number; tab: KindTab }) {
  if (!kind.canEdit) return null;
  if (tab.source === 'files') return <UploadFile kind={kind} id={id} />;
  if (tab.source === 'sublist' && tab.name === 'notes') return <AddNote kind={kind} id={id} />;
  return null;
}
