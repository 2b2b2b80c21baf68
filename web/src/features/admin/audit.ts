/**
 * The audit log (`GET /api/v1/audit`): what happened in the tenant, newest first, 100 at a
 * time, and the users it can be narrowed to (`GET /api/v1/audit/users`). The server names
 * the users, roles and records; this module says each event in words (a role switch's
 * roles, a sign-in's method, an edit's fields as "before → after").
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { formatValue, fieldOf, type CellValue, type Envelope, type Kind } from '../records';
import { categoryLabel } from '../feedback';
import { recordsKey } from '../../lib/queryKeys';

/** Events of the log, as the server names them. */
export const AUDIT_EVENTS = [
  { value: 'login', label: 'Signed in' },
  { value: 'login_failed', label: 'Sign-in failed' },
  { value: 'role_switch', label: 'Switched role' },
  { value: 'logout', label: 'Signed out' },
  { value: 'refresh_reuse', label: 'Refresh token reused' },
  { value: 'record_create', label: 'Created a record' },
  { value: 'record_edit', label: 'Edited a record' },
  { value: 'record_synced', label: 'Reached NetSuite' },
  { value: 'record_refused', label: 'Refused by NetSuite' },
  { value: 'report_save', label: 'Saved a report' },
  { value: 'feedback', label: 'Sent feedback' },
  { value: 'access_import', label: 'Changed users, roles or menus' },
] as const;

/** The label of an event ("Signed in"), or the event itself when unknown. */
export function eventLabel(event: string): string {
  return AUDIT_EVENTS.find((e) => e.value === event)?.label ?? event;
}

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
  /** The record's name, when the portal has the record. */
  record?: string;
  /** Names of the roles the detail refers to by id, by detail key ("from", "to", "role"). */
  detailNames?: Record<string, string>;
}

/** A user the log can be narrowed to. */
export interface AuditUser {
  id: number;
  fullName: string;
  email: string;
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

export async function fetchAuditUsers(signal?: AbortSignal): Promise<AuditUser[]> {
  return (await api.get<Envelope<AuditUser[]>>('/audit/users', { signal })).data;
}

export function auditUsersQuery() {
  return queryOptions({
    queryKey: [...recordsKey(), 'audit', 'users'] as const,
    queryFn: ({ signal }) => fetchAuditUsers(signal),
    staleTime: 5 * 60_000,
  });
}

/** One field of a create or edit: its label, and its value before and after, as text. */
export interface AuditChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

const EMPTY = '(empty)';

/**
 * The fields a create or edit changed, in the kind's field order (unknown fields last, by
 * name), labelled and formatted as the record's page shows them; money as the bare amount
 * with two decimals ("1,250.50"), since an event does not say which currency its record is
 * in: never a currency symbol it may not be in.
 */
export function auditChanges(event: Pick<AuditEvent, 'detail'>, kind: Kind | undefined): AuditChange[] {
  const changes = event.detail?.changes;
  if (!changes || typeof changes !== 'object') return [];
  const order = (name: string) => {
    const i = kind?.fields.findIndex((f) => f.name === name) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return Object.entries(changes as Record<string, { before?: CellValue; after?: CellValue } | null>)
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([name, change]) => {
      const field = fieldOf(kind, name);
      // A value its type cannot read (text where a number was due) shows as written, never as "(empty)".
      const text = (value: CellValue | undefined) => {
        if (value === undefined || value === null || value === '') return EMPTY;
        return formatValue(value, field?.type) || (typeof value === 'object' ? EMPTY : String(value));
      };
      return { field: name, label: field?.label ?? name, before: text(change?.before), after: text(change?.after) };
    });
}

/** How a user signed in, from the identity provider's id. */
export function providerLabel(provider: unknown): string {
  if (typeof provider !== 'string' || provider === '') return '';
  if (provider === 'password') return 'email and password';
  if (provider === 'google.com') return 'Google';
  if (provider === 'microsoft.com') return 'Microsoft';
  if (provider.startsWith('saml.') || provider.startsWith('oidc.')) return 'single sign-on';
  return provider;
}

/** Why a sign-in failed, from the server's error code. */
const FAILURES: Record<string, string> = {
  not_found: 'no portal user has this email',
  forbidden: 'the user may not sign in',
  invalid_credentials: 'the sign-in could not be verified',
  unauthenticated: 'the sign-in could not be verified',
  rate_limited: 'too many attempts',
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A role the detail names by id, by its name; "a removed role" when the tenant no longer has it. */
function roleNamed(event: Pick<AuditEvent, 'detail' | 'detailNames'>, key: string): string {
  return event.detailNames?.[key] ?? (event.detail?.[key] !== undefined ? 'a removed role' : '');
}

/**
 * What an event says beyond its columns, in a sentence (no ids, no JSON): "From Accountant
 * to Project Manager", "With email and password", "Report “Q3” of projects", the ERP's
 * result of a write. Creates and edits list their fields apart ({@link auditChanges}).
 */
export function auditSummary(event: Pick<AuditEvent, 'event' | 'detail' | 'detailNames' | 'role'>, kinds?: readonly Kind[]): string {
  const d = event.detail ?? {};
  switch (event.event) {
    case 'login': {
      const how = providerLabel(d.provider);
      // Sign-ins recorded before they carried their role named it in the detail.
      const role = event.role ? '' : roleNamed(event, 'role');
      return [how && `With ${how}`, role && `as ${role}`].filter(Boolean).join(' ');
    }
    case 'login_failed': {
      const why = FAILURES[text(d.reason)] ?? '';
      return [text(d.email), why].filter(Boolean).join(': ');
    }
    case 'role_switch':
      return `From ${roleNamed(event, 'from') || 'another role'} to ${roleNamed(event, 'to') || 'another role'}`;
    case 'refresh_reuse':
      return 'A sign-in was reused; its session was ended';
    case 'access_import':
      return text(d.summary);
    case 'report_save': {
      const kind = kinds?.find((k) => k.name === d.kind);
      return `Report “${text(d.name)}”${kind ? ` of ${kind.plural.toLowerCase()}` : ''}`;
    }
    case 'feedback': {
      const label = categoryLabel(text(d.category));
      return label ? `“${label}”` : '';
    }
    case 'record_create':
    case 'record_edit':
    case 'record_synced':
    case 'record_refused': {
      const result = text(d.result);
      return result ? result.charAt(0).toUpperCase() + result.slice(1) : '';
    }
    default:
      return '';
  }
}
