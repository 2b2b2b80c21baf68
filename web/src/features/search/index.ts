/** The search feature's public entry: what other features may use of it. */
export type { PathOption, SearchOption } from './groups';
export { useGroupedResults } from './useGroupedResults';
export { useRecordSearch } from './useRecordSearch';

/** The command palette (Ctrl K), loaded when first opened: it is not part of the first load. */
export const loadCommandPalette = () => import('./CommandPalette');
