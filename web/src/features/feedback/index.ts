/** The feedback feature's public entry: what other features may use of it. */
export { FEEDBACK_CATEGORIES, categoryLabel, downloadAttachment, fetchSubmissions } from './feedback';
export type { Submission } from './feedback';
