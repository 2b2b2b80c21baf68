/** The shortlist feature's public entry: what other features may use of it. */
export { RecordShortlist } from './RecordShortlist';
export { ShortlistCards } from './ShortlistCards';
export type { Shelf, ShelfItem } from './api';
export { shelfOptions } from './options';
export { shelfQuery } from './queries';
