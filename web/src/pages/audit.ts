/** The audit log (`GET /api/v1/audit`): what happened in the tenant, newest first, 100 at a time. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { recordsKey } from '../records/queries';
import type { Envelope } from '../records/types';

/** Events of the log, as the server names them. */
export const AUDIT_EVENTS = [
  { value: 'login', label: 'Signed in' },
  { value: 'login_failed', label: 'Sign-in failed' },
  { value: 'role_switch', label: 'Switched role' },
  { value: 'logout', label: 'Signed out' },
  { value: 'refresh_reuse', label: 'Refresh token reused' },
  { value: 'record_create', label: 'Created a record' },
  { value: 'record_edit', label: 'Edited a record' },
  { value: 'report_save', label: 'Saved a report' },
  { value: 'feedback', label: 'Sent feedback' },
] as const;

/** The server's page size: a shorter page is the last. */
export const AUDIT_PAGE = 100;

export interface AuditEvent {
  id: number;
  at: string;
  event: string;
  userId: number;
  roleId: number;
  ip: string;
  detail: Record<string, unknown> | null;
  kind?: string;
  recordId?: number;
  /** The user's and role's names. */
  user: string;
  role: string;
}

/** Filters of the log; "" filters nothing. */
export interface AuditFilter {
  event: string;
  userId: string;
  kind: string;
}

export async function fetchAudit(filter: AuditFilter, before: number | undefined, signal?: AbortSignal): Promise<AuditEvent[]> {
  const query = { event: filter.event || undefined, userId: filter.userId || undefined, kind: filter.kind || undefined, before };
  return (await api.get<Envelope<AuditEvent[]>>('/audit', { query, signal })).data;
}

/** One page of the log under `filter`: the events before event `before` (the newest when undefined). */
export function auditPageQuery(filter: AuditFilter, before: number | undefined) {
  return queryOptions({
    queryKey: [...recordsKey(), 'audit', filter, before ?? null] as const,
    queryFn: ({ signal }) => fetchAudit(filter, before, signal),
  });
}

/** Where the page after `page` starts (its last event), or undefined when `page` is the last. */
export function nextCursor(page: readonly AuditEvent[] | undefined): number | undefined {
  return page && page.length >= AUDIT_PAGE ? page[page.length - 1]?.id : undefined;
}

/** The detail of an event as short "key: value" text, e.g. "name: Q3 · kind: project". */
export function detailText(detail: AuditEvent['detail']): string {
  if (!detail) return '';
  return Object.entries(detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' · ');
}
