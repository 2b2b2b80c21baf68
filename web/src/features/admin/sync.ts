/**
 * The ERP sync's status (`GET /api/v1/sync/status`, sync.view) and runs
 * (`POST /api/v1/sync/run`, sync.admin), for the /sync page.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Envelope } from '../records';
import { recordsKey } from '../../lib/queryKeys';

/** One kind's pulls: where the replica stands. Times are RFC 3339; the zero time means never. */
export interface SyncKind {
  /** The record type, e.g. "project". */
  kind: string;
  /** Its plural label, e.g. "Projects". */
  label: string;
  checkpoint: { modified: string; id: number };
  deletedSince: string;
  lastRun: string;
  lastSuccess: string;
  pulledTotal: number;
  lastPulled: number;
  lastDeleted: number;
  /** The last run's failure; absent when it went well. */
  lastError?: string;
  /**
   * Why the account cannot serve the kind as the mapping has it ("… not in this account:
   * record type … — NetSuite: …"); absent when it can. The schedule does not try it again
   * until its mapping changes (a sync started here does).
   */
  unavailable?: string;
  /** The optional columns the account lacks, comma-separated ("balance"): their fields stay empty. */
  missing?: string;
  /** The mapping turns the kind off: it is not synced. */
  off?: boolean;
  /** Age of the replica in seconds; -1 before the first successful pull. */
  lagSeconds: number;
}

/** A create or edit on its way to the ERP (pending), or refused by it (failed). */
export interface OutboxEntry {
  id: number;
  kind: string;
  recordId: number;
  op: 'create' | 'update';
  state: 'pending' | 'failed';
  attempts: number;
  nextAt: string;
  /** The ERP's last message. */
  error?: string;
  erpId?: number;
  created: string;
}

/**
 * The sync's status. A portal without an ERP has none: `connected` is false, `message`
 * says so, and nothing else is there.
 */
export type SyncAnswer = ({ connected: true; names?: Record<string, string> } & SyncStatus) | { connected: false; message: string };

export interface SyncStatus {
  intervalSeconds: number;
  kinds: SyncKind[];
  /** Outbox entries by state; a state with none is absent. */
  outbox: Partial<Record<'pending' | 'failed' | 'synced' | 'discarded', number>>;
  /** The pending and failed entries, newest first. */
  open: OutboxEntry[];
  /**
   * The last time NetSuite's two APIs gave one record different last-modified times (a wrong
   * `timezone` in the mapping): both times and the fix. Absent when they agree.
   */
  clock?: string;
}

/** How often the page refetches the status while a run it started goes on. */
export const SYNC_POLL_MS = 5_000;

export async function fetchSyncStatus(signal?: AbortSignal): Promise<SyncAnswer> {
  return (await api.get<Envelope<SyncAnswer>>('/sync/status', { signal })).data;
}

export function syncStatusQuery() {
  return queryOptions({
    queryKey: [...recordsKey(), 'sync', 'status'] as const,
    queryFn: ({ signal }) => fetchSyncStatus(signal),
  });
}

/** Starts a pull in the background: of one kind (every kind when undefined), incremental or full. */
export async function startSync(kind: string | undefined, full: boolean): Promise<{ started: boolean; full: boolean }> {
  const query = { kind, full: full ? 'true' : undefined };
  return (await api.post<Envelope<{ started: boolean; full: boolean }>>('/sync/run', undefined, { query })).data;
}

/** Whether an RFC 3339 time is Go's zero time ("0001-01-01T00:00:00Z"), i.e. never. */
export function isNever(time: string | undefined | null): boolean {
  return !time || time.startsWith('0001-01-01');
}

/** A lag for people: "12 s", "3 min", "2 h", "4 d"; "never" before the first pull. */
export function formatLag(seconds: number): string {
  if (seconds < 0) return 'never';
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** Where a kind stands, for its status badge. */
export type KindState = 'off' | 'unavailable' | 'error' | 'never' | 'ok';

/**
 * A kind's state: off in the mapping, not in the account (a state of the account, not a
 * failure), failing, never pulled yet, or fine.
 */
export function kindState(kind: SyncKind): KindState {
  if (kind.off) return 'off';
  if (kind.unavailable) return 'unavailable';
  if (kind.lastError) return 'error';
  if (isNever(kind.lastSuccess)) return 'never';
  return 'ok';
}

/**
 * Why a kind is not in the account, for people: the server's sentence without its error
 * code prefix ("erp 400 INVALID_PARAMETER: ") and without "not in this account:", which
 * the badge says already.
 */
export function unavailableReason(text: string): string {
  const reason = text
    .trim()
    .replace(/^erp \d{3} [A-Z_]+: /, '')
    .replace(/^not in this account: /i, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** The optional columns a kind lacks in the account, from the status's comma-separated list. */
export function missingColumns(missing: string | undefined): string[] {
  return (missing ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
}
