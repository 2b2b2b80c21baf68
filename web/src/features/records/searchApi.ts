/**
 * The global record search call (SPEC §7: GET /api/v1/{erp}/{product}?method=search&query=…).
 * The navbar box, the command palette and the record lookups (reference pickers) all ask
 * through this one function.
 */
import { api } from '../../lib/api';
import { config } from '../../lib/config';

/** One search result (SPEC §3): `name` and `domain`, the in-app link target. */
export interface SearchResult {
  name: string;
  /** The record's view page in the portal, e.g. `/project/view?id=42`. */
  domain: string;
  /** The record kind, e.g. `project`. */
  type: string;
  id: number;
  /** A short description: the kind's label and the record's number and status. */
  detail?: string;
}

export interface SearchOptions {
  /** Limit the search to one kind (the record lookups); the server answers 403 for a kind the role may not see. */
  type?: string;
  signal?: AbortSignal;
}

/** `/{erp}/{product}`, the search path. */
export function searchPath(): string {
  return `/${config.erp}/${config.product}`;
}

/**
 * Searches records for `query` (an optional NetSuite-style `prefix:` narrows the kinds).
 * At most 20 results, best first.
 */
export async function searchRecords(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
  const answer = await api.get<{ data: SearchResult[] }>(searchPath(), {
    query: { method: 'search', query, type: options.type },
    signal: options.signal,
  });
  return answer.data;
}

/**
 * How many records of one kind match (`count`, or at least `count` when `more`: the server
 * stops counting at 100), counted as that kind's list counts the same text, so its "See
 * all" shows what the group says.
 */
export interface SearchGroup {
  type: string;
  count: number;
  more: boolean;
}

/** A grouped search answer: the results, each searched kind that has matches, and the searched text (without the prefix). */
export interface GroupedSearch {
  results: SearchResult[];
  groups: SearchGroup[];
  text: string;
}

/** {@link searchRecords} with each kind's matches counted (the navbar box and the command palette). */
export async function searchGrouped(query: string, options: Pick<SearchOptions, 'signal'> = {}): Promise<GroupedSearch> {
  const answer = await api.get<{ data: GroupedSearch }>(searchPath(), {
    query: { method: 'search', query, groups: true },
    signal: options.signal,
  });
  return answer.data;
}
