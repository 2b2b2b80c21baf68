/** The events feature's public entry: what other features may use of it. */
export { EditingNotice } from './EditingNotice';
export { applyEvent } from './apply';
export { useEditingPresence, useEventsConnected, useRowMarks } from './hooks';
export { recordMarkKey, useEventsStore } from './store';
