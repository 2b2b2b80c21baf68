/**
 * Going to page N of a keyset-paged list. The record API pages by cursor (a page's last
 * sort key), never by offset: a deep page costs what the first does, and the cursor of a
 * page is known only once the page before it was read. So:
 *
 * - any page before this one is free: its cursor is in the URL already (listState);
 * - a page ahead is reached by reading the pages between, one request each, asking only for
 *   one narrow column (an index walk of one page each), at most {@link MAX_JUMP} pages on;
 *   the cursors read on the way go into the URL, so Back and Previous keep working;
 * - farther than that, the user narrows the list instead (a filter, a search, the other
 *   sort direction), which the page says.
 */
import { formatCount } from './format';

/** The most pages one jump reads its way forward. */
export const MAX_JUMP = 50;

/** What the walk needs of a page: where the next one starts. */
export interface PageLink {
  nextCursor: string | null;
  hasMore: boolean;
}

export interface Walk {
  /** The cursors of the pages after the current one, up to the page reached. */
  cursors: string[];
  /** The list ended before the page wanted: the last page was reached. */
  ended: boolean;
}

/**
 * Why a page cannot be gone to, or null when it can. `lastPage` is the list's last page
 * when counted (`estimated` when the count is an estimate).
 */
export function jumpProblem(target: number, current: number, lastPage: number | null, estimated = false): string | null {
  if (!Number.isInteger(target) || target < 1) return 'Enter a page number, 1 or more.';
  if (lastPage !== null && target > lastPage) {
    return `There ${lastPage === 1 ? 'is 1 page' : `are ${estimated ? 'about ' : ''}${formatCount(lastPage)} pages`}.`;
  }
  if (target - current > MAX_JUMP) {
    return `Page ${formatCount(target)} is more than ${MAX_JUMP} pages on. Narrow the list with a filter or a search, or sort it the other way round.`;
  }
  return null;
}

/**
 * Reads forward from the current page (`from`, its own answer) to page `current + steps`:
 * `read(cursor)` answers the page starting at a cursor. Gives the cursors of the pages on
 * the way and of the page reached; stops early where the list ends. `onStep` reports each
 * page read (for a progress note).
 */
export async function walkForward(
  from: PageLink,
  steps: number,
  read: (cursor: string) => Promise<PageLink>,
  onStep?: (done: number) => void,
): Promise<Walk> {
  const cursors: string[] = [];
  let link = from;
  for (let i = 0; i < steps; i++) {
    if (!link.hasMore || !link.nextCursor) return { cursors, ended: true };
    cursors.push(link.nextCursor);
    if (i === steps - 1) break;
    link = await read(link.nextCursor);
    onStep?.(i + 1);
  }
  return { cursors, ended: false };
}
