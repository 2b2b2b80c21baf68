import { ID_PARAM } from '../../lib/paths';

/** The record id of a view URL, or null when missing or malformed. */
export function recordIdOf(params: URLSearchParams): number | null {
  const raw = params.get(ID_PARAM);
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
