/**
 * The keys of the server state every feature shares: records, lists and reports. Every
 * key starts with `['records', <role id>]`: what the server answers depends on the current
 * role (a kind another role may not see is a 403), so a role switch never shows the
 * previous role's answers. The records and reports features build their queries on them;
 * the live events invalidate by them.
 */
import { useSessionStore } from './session/store';

function roleId(): number | null {
  return useSessionStore.getState().currentRole?.id ?? null;
}

/** The prefix of every record query of the current role. */
export function recordsKey() {
  return ['records', roleId()] as const;
}

/** Prefix of every list page of a record type (for invalidation). */
export function listPagesKey(type: string) {
  return [...recordsKey(), 'list', type] as const;
}

/** Prefix of the saved lists of a record type. */
export function listConfigsKey(type: string) {
  return [...recordsKey(), 'listConfigs', type] as const;
}

/** Prefix of everything about one record. */
export function recordKey(type: string, id: number) {
  return [...recordsKey(), 'record', type, id] as const;
}

/** Prefix of every report query. */
export function reportsKey() {
  return [...recordsKey(), 'reports'] as const;
}
