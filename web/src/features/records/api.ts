/**
 * Calls of the record API (SPEC §7 base paths `/{product}-list`, `/listConfiguration`,
 * `/{product}-record`, `/{product}-file` under `/api/v1/{erp}`), through the app's API
 * client (bearer token, role header, error normalisation).
 */
import { api, ROLE_HEADER, type QueryValue } from '../../lib/api';
import { config } from '../../lib/config';
import type {
  ApprovalInput,
  ApprovalResult,
  BulkEditInput,
  BulkResult,
  Envelope,
  FileInfo,
  Kind,
  KindRoute,
  ListConfig,
  ListConfigInput,
  ListConfigs,
  ListCount,
  ListPage,
  ListTotals,
  RecordDetail,
  SavedRecord,
  SaveInput,
  SortDir,
  TabRows,
} from './types';

/** `/{erp}/{product}{suffix}`, e.g. `/netsuite/portal-list`. */
export function productPath(suffix: '-list' | '-record' | '-file' | '-crud' | '-bulk' | '-note' | '-approval'): string {
  return `/${config.erp}/${config.product}${suffix}`;
}

/** `/{erp}/listConfiguration`. */
export function listConfigurationPath(): string {
  return `/${config.erp}/listConfiguration`;
}

/** What a list page asks for. */
export interface ListParams {
  type: string;
  list?: string;
  sort?: string;
  dir?: SortDir;
  filter?: string;
  q?: string;
  pageSize?: number;
  cursor?: string;
  /** Field names to show instead of the saved list's columns (the column chooser). */
  columns?: string[];
}

/** The query string of a list request (also used by the CSV export, without paging). */
export function listQuery(params: ListParams): Record<string, QueryValue> {
  return {
    type: params.type,
    list: params.list,
    sort: params.sort,
    dir: params.sort ? (params.dir ?? 'asc') : undefined,
    filter: params.filter,
    q: params.q,
    pageSize: params.pageSize,
    cursor: params.cursor,
    columns: params.columns?.join(','),
  };
}

export async function fetchKinds(signal?: AbortSignal): Promise<Kind[]> {
  const answer = await api.get<Envelope<Kind[]>>('/kinds', { signal });
  return answer.data;
}

/** Every kind's route and plural label, those the role may not see included (`GET /api/v1/kinds/routes`). */
export async function fetchKindRoutes(signal?: AbortSignal): Promise<KindRoute[]> {
  const answer = await api.get<Envelope<KindRoute[]>>('/kinds/routes', { signal });
  return answer.data;
}

export async function fetchListPage(params: ListParams, signal?: AbortSignal): Promise<ListPage> {
  const answer = await api.get<Envelope<ListPage>>(productPath('-list'), { query: listQuery(params), signal });
  return answer.data;
}

/**
 * How many records a list request matches: the list call with `count=true`, asking for one
 * row, since only the total is wanted. Null when the server did not count.
 */
export async function fetchListCount(params: ListParams, signal?: AbortSignal): Promise<ListCount | null> {
  const answer = await api.get<Envelope<ListPage>>(productPath('-list'), { query: { ...listQuery({ ...params, pageSize: 1 }), count: true }, signal });
  return typeof answer.data.total === 'number' ? { total: answer.data.total, estimated: !!answer.data.totalEstimated } : null;
}

/**
 * The sums of a list request's summable columns over every record it matches: the list call
 * with `totals=true`, asking for one row.
 */
export async function fetchListTotals(params: ListParams, signal?: AbortSignal): Promise<ListTotals> {
  const answer = await api.get<Envelope<ListPage>>(productPath('-list'), { query: { ...listQuery({ ...params, pageSize: 1 }), totals: true }, signal });
  return { values: answer.data.totals ?? {}, estimated: !!answer.data.totalsEstimated };
}

/**
 * Sets one field on some records (`POST {product}-bulk`), each saved on its own; the answer
 * says what became of each. The key (`Idempotency-Key`) makes a retry write no record twice.
 */
export async function bulkEdit(type: string, input: BulkEditInput, idempotencyKey: string): Promise<BulkResult> {
  const answer = await api.post<Envelope<BulkResult>>(productPath('-bulk'), input, { query: { type }, headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.data;
}

/**
 * Approves or rejects some records waiting for the caller's decision (`POST
 * {product}-approval`), each decided on its own; the answer says what became of each. The
 * key (`Idempotency-Key`) makes a retry decide no record twice.
 */
export async function decideApproval(type: string, input: ApprovalInput, idempotencyKey: string): Promise<ApprovalResult> {
  const answer = await api.post<Envelope<ApprovalResult>>(productPath('-approval'), input, { query: { type }, headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.data;
}

export async function fetchListConfigs(type: string, signal?: AbortSignal): Promise<ListConfigs> {
  const answer = await api.get<Envelope<ListConfigs>>(listConfigurationPath(), { query: { type }, signal });
  return answer.data;
}

export async function createListConfig(type: string, input: ListConfigInput): Promise<ListConfig> {
  const answer = await api.post<Envelope<ListConfig>>(listConfigurationPath(), input, { query: { type } });
  return answer.data;
}

export async function updateListConfig(type: string, id: string, input: ListConfigInput): Promise<ListConfig> {
  const answer = await api.put<Envelope<ListConfig>>(listConfigurationPath(), input, { query: { type, id } });
  return answer.data;
}

export async function deleteListConfig(type: string, id: string): Promise<void> {
  await api.delete<unknown>(listConfigurationPath(), { query: { type, id } });
}

export async function fetchRecord(type: string, id: number, signal?: AbortSignal): Promise<RecordDetail> {
  const answer = await api.get<Envelope<RecordDetail>>(productPath('-record'), { query: { type, id }, signal });
  return answer.data;
}

export async function fetchRecordTab(type: string, id: number, tab: string, signal?: AbortSignal): Promise<TabRows> {
  const answer = await api.get<Envelope<TabRows>>(productPath('-record'), { query: { type, id, tab }, signal });
  return answer.data;
}

/**
 * Creates a record of `type` (no id: POST, 201) or edits record `id` (PUT, with the
 * version the form was opened at), answering the saved record's view (`unchanged` when
 * the edit changed nothing, so nothing was written). The input's `idempotencyKey`, if
 * any, goes as the `Idempotency-Key` header, its `roleId` as the role header. A 422 problem
 * carries `errors: [{field, message}]`; a 409 (changed meanwhile) carries `current`, the
 * record's values and version now.
 */
export async function saveRecord(type: string, id: number | null, input: SaveInput): Promise<SavedRecord> {
  const headers: Record<string, string> = {};
  if (input.idempotencyKey) headers['Idempotency-Key'] = input.idempotencyKey;
  if (input.roleId !== undefined) headers[ROLE_HEADER] = String(input.roleId);
  const answer =
    id === null
      ? await api.post<Envelope<SavedRecord>>(productPath('-crud'), { fields: input.fields }, { query: { type }, headers })
      : await api.put<Envelope<SavedRecord>>(productPath('-crud'), { fields: input.fields, version: input.version }, { query: { type, id }, headers });
  return answer.data;
}

export async function fetchFiles(type: string, id: number, signal?: AbortSignal): Promise<FileInfo[]> {
  const answer = await api.get<Envelope<FileInfo[]>>(productPath('-file'), { query: { type, id }, signal });
  return answer.data;
}

/** A downloaded file: its bytes and the name the server gave it. */
export interface Download {
  blob: Blob;
  filename: string | null;
}

/** The file name of a `Content-Disposition` header (RFC 6266, `filename*` preferred). */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  return name ? name : null;
}

/**
 * GETs `path` as a file through the API client (bearer token, role header), with the
 * name the server gives it in `Content-Disposition`. Hand it to `saveDownload`.
 */
export async function download(path: string, query: Record<string, QueryValue>, accept = '*/*'): Promise<Download> {
  let filename: string | null = null;
  const blob = await api.get<Blob>(path, {
    query,
    responseType: 'blob',
    headers: { Accept: accept },
    onResponse: (response) => {
      filename = dispositionFilename(response.headers.get('Content-Disposition'));
    },
  });
  return { blob, filename };
}

/** The whole filtered, sorted list as CSV (`format=csv`; the server streams every row). */
export function downloadListCsv(params: ListParams): Promise<Download> {
  const { pageSize: _pageSize, cursor: _cursor, ...rest } = params;
  return download(productPath('-list'), { ...listQuery(rest), format: 'csv' }, 'text/csv, */*');
}

/**
 * Some records of a list as CSV, in the order given, with the columns the list call with the
 * same saved list and columns shows (`GET {product}-bulk`).
 */
export function downloadSelectedCsv(params: Pick<ListParams, 'type' | 'list' | 'columns'>, ids: readonly number[]): Promise<Download> {
  return download(productPath('-bulk'), { type: params.type, list: params.list, columns: params.columns?.join(','), ids: ids.join(',') }, 'text/csv, */*');
}

/** One attachment of a record. */
export function downloadFile(type: string, id: number, fileId: number): Promise<Download> {
  return download(productPath('-file'), { type, id, fileId }, '*/*');
}

/** Hands a downloaded blob to the browser as a file. */
export function saveDownload({ blob, filename }: Download, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? fallbackName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
