/**
 * Shapes of the record API (`GET /api/v1/kinds` and `/api/v1/{erp}/{product}-list`,
 * `-record`, `-file`, `-bulk`, `-approval`, `listConfiguration`). Every answer is wrapped in `{ data }`.
 */

/**
 * How a field's values read and are edited. Money is in its record's currency (a row's
 * `_currency`, a record page's `currency`), else the field's `currency` (the tenant's base
 * currency); percent is 0–100 (95 reads "95%"); quantity is a measured amount (credits,
 * acres), of the unit its field's `per` names when it has one; number a plain count or
 * figure.
 */
export type FieldType =
  | 'text'
  | 'status'
  | 'reference'
  | 'money'
  | 'quantity'
  | 'date'
  | 'percent'
  | 'email'
  | 'phone'
  | 'url'
  | 'boolean'
  | 'number';

/** The comparisons of the list filter grammar (see filter.ts). */
export const OPERATORS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'startswith'] as const;
export type Operator = (typeof OPERATORS)[number];

/**
 * A field of the kind: what lists show, sort and filter on, record pages show and forms
 * edit. Most live in a promoted column; an account field (`account`) is one the ERP
 * account adds (its own custom field, declared in the ERP mapping), kept in the record's
 * document: it works like the others, but is on no promoted column.
 */
export interface KindField {
  name: string;
  label: string;
  /**
   * The promoted column it lives in (title, code, status, parent_id, project_id, amount,
   * occurred_on); `fields.<name>` for a field kept in the record's document (the kind's
   * declared document fields and the account's own). Look promoted fields up with
   * fieldOnColumn, never by assuming every field has one.
   */
  column: string;
  type: FieldType;
  /** For references: the record type referred to. */
  ref?: string;
  /** For statuses: the values it may take. */
  choices?: string[];
  /** Lists may sort on it (only when the sort is an index walk). */
  sortable?: boolean;
  /** Lists may filter on it. */
  filterable?: boolean;
  /**
   * A filterable field's comparisons, as the server decides them for its type, in the
   * order a filter builder offers them (the first is its default).
   */
  operators?: readonly Operator[];
  /** Create and edit forms must give it a value. */
  required?: boolean;
  /**
   * A system field (ids and numbers the ERP assigns, balances, amounts remaining,
   * computed values): forms show it but never send it.
   */
  readOnly?: boolean;
  /** Lists can total it (money and quantity), per unit (UnitTotal), never in one sum. */
  summable?: boolean;
  /**
   * Money only: the ISO 4217 code of the tenant's base currency, which its values are in
   * unless their record names another (Row `_currency`, RecordDetail `currency`).
   */
  currency?: string;
  /**
   * Quantities only: the name of the field of the same kind whose value is the quantity's
   * unit in each record (credits are of their credit type). Totals are per value of it.
   * Absent for a quantity of one unit (acres).
   */
  per?: string;
  /** A field the ERP account adds (see above). */
  account?: boolean;
}

export type TabSource = 'files' | 'related' | 'sublist' | 'lines' | 'custom' | 'history';

/** One sub-tab of a record's view page; `name` is its route segment. */
export interface KindTab {
  name: string;
  label: string;
  source: TabSource;
  /** For related and custom tabs: the record type its rows are. */
  kind?: string;
  /** For related tabs: the column of this record whose target's records are listed. */
  through?: string;
  /**
   * For lines tabs: the sublist's members shown, typed, in the order a document shows them
   * (the tab's answer gives the same columns); a summable one adds up to the lines' total.
   */
  columns?: ListColumn[];
}

/** One record kind of the registry (SPEC §3), as `GET /api/v1/kinds` describes it. */
/** A kind's route segment and plural label (`GET /api/v1/kinds/routes`): every kind, whatever the role sees. */
export interface KindRoute {
  route: string;
  plural: string;
}

export interface Kind {
  /** Record type, e.g. "project", "customrecord_res_opportunity". */
  name: string;
  /** App route segment: /<route>/list. */
  route: string;
  label: string;
  plural: string;
  erpType: string;
  /** Default saved-list id. */
  defaultList: string;
  /**
   * Every field it has: the promoted ones (the first is the title), then its declared
   * document fields, then the account's own fields (if any).
   */
  fields: KindField[];
  /** The order its lists take when none is asked for: transactions newest first, others by name. */
  defaultSort?: { field: string; dir: SortDir };
  /** Its reference to the employee who manages or owns a record (a project's manager), if any. */
  owner?: string;
  /** Its text field holding a record's postal address (a client's, a vendor's), if any. */
  address?: string;
  tabs: KindTab[];
  erpLink?: string;
  canCreate: boolean;
  canEdit: boolean;
  /** Its records go through approval (today vendor bills): how, and which wait for the caller. */
  approval?: KindApproval;
  /** The role may approve or reject some records of the kind (those waiting for the caller). */
  canApprove: boolean;
}

/**
 * How a kind's records go through approval (`Kind.approval`): the fields holding a
 * record's approval status and next approver, the status's values, and `awaiting`, the
 * list filter (filter.ts grammar) of the records waiting for the caller's decision, where
 * `$me` is the signed-in user's employee record (the server puts it in).
 */
export interface KindApproval {
  status: string;
  nextApprover: string;
  pending: string;
  approved: string;
  rejected: string;
  awaiting: string;
}

/** A reference to another record. */
export interface RefValue {
  id: number;
  refName: string;
}

export type CellValue = string | number | boolean | RefValue | null | undefined;

/**
 * A row of a list or tab (or a grouped report): its record id plus one value per column
 * name, and `_currency` when its money is not in the base currency.
 */
export interface Row {
  id: number;
  /**
   * The ISO 4217 code of the row's money values, present only when the row shows money and
   * its record is not in the base currency (which the field's `currency` names). A key no
   * field can have.
   */
  _currency?: string;
  [column: string]: CellValue;
}

/**
 * A total of the values of one unit, never added to those of another (`totals` of lists,
 * dashboard cards, totals by status). For money `unit` is the ISO 4217 code of their
 * currency, absent (or "") for the base currency; for a quantity with `per`, that field's
 * value ("" in records without one); absent for a quantity of one unit.
 */
export interface UnitTotal {
  unit?: string;
  total: number;
}

export interface ListColumn {
  name: string;
  label: string;
  type: FieldType;
  sortable?: boolean;
  /** Lists can total it (money and quantity). */
  summable?: boolean;
  /**
   * Money: the ISO 4217 code of the base currency its amounts are in unless their row names
   * another (`_currency`). The kinds' lines-tab columns carry it; list and tab answers do
   * not (the kind's field does).
   */
  currency?: string;
}

export type SortDir = 'asc' | 'desc';

/** One page of a saved list. */
export interface ListPage {
  list: { id: string; name: string };
  columns: ListColumn[];
  rows: Row[];
  hasMore: boolean;
  nextCursor: string | null;
  /** How many records match, when the request asked (`count=true`). */
  total?: number;
  /** `total` is an estimate, not a count. */
  totalEstimated?: boolean;
  /**
   * With `totals=true`: the totals of each summable answered column over the whole filtered
   * result, per unit ("" first, then by unit; `[{ total: 0 }]` when nothing matches).
   */
  totals?: Record<string, UnitTotal[]>;
  /** `totals` are estimates. */
  totalsEstimated?: boolean;
}

/** How many records a list matches (`count=true`). */
export interface ListCount {
  total: number;
  /** An estimate (a big list is not counted row by row). */
  estimated: boolean;
}

/** Totals over every record a list matches, by column name, per unit (`totals=true`). */
export interface ListTotals {
  values: Record<string, UnitTotal[] | undefined>;
  /** The sums are estimates. */
  estimated: boolean;
}

/** A bulk edit: one field set to one value on some records (`POST {product}-bulk`). */
export interface BulkEditInput {
  ids: number[];
  field: string;
  /** As a save sends it (see {@link SaveFields}); null clears the field. */
  value: string | number | boolean | null;
}

/** What became of one record of a bulk edit or an approval decision. */
export interface BulkOutcome {
  id: number;
  title?: string;
  /** The record has the value (or the decision) now. */
  saved: boolean;
  /** It had it already: nothing was written. */
  unchanged?: boolean;
  /** Where its write stands with the ERP. */
  write?: WriteState;
  /** Why it was not saved. */
  message?: string;
}

/** What became of the records of a request on many (bulk edit, approval): one outcome per record, in the order sent. */
export interface BulkOutcomes {
  saved: number;
  failed: number;
  results: BulkOutcome[];
}

/** A bulk edit's answer. */
export interface BulkResult extends BulkOutcomes {
  field: string;
}

export type ApprovalDecision = 'approve' | 'reject';

/**
 * A decision on some records waiting for the caller's approval (`POST {product}-approval`):
 * 1 to 200 ids; the comment is required to reject, at most 4,000 characters.
 */
export interface ApprovalInput {
  ids: number[];
  decision: ApprovalDecision;
  comment: string;
}

/** A decision's answer: what became of each record. */
export interface ApprovalResult extends BulkOutcomes {
  decision: ApprovalDecision;
}

export type Visibility = 'private' | 'role';

/** A saved list (list configuration). */
export interface ListConfig {
  id: string;
  type: string;
  name: string;
  /** Field names, in display order. */
  columns: string[];
  /** Filter expression; "" for none. */
  filter: string;
  sort: { field: string; dir: SortDir };
  visibility: Visibility;
  roleId?: number;
  builtIn: boolean;
  editable: boolean;
}

export interface ListConfigs {
  lists: ListConfig[];
  defaultId: string;
}

/** What the list editor sends to create or update a saved list. */
export interface ListConfigInput {
  name: string;
  columns: string[];
  filter: string;
  sort: { field: string; dir: SortDir };
  visibility: Visibility;
  /** With visibility "role": the role shared with, one the user holds; none for the role worked in. */
  roleId?: number;
}

export interface RecordField {
  name: string;
  label: string;
  type: FieldType;
  value: CellValue;
}

export interface RecordDetail {
  id: number;
  type: string;
  title: string;
  code: string;
  status: string;
  /** Absolute link into the ERP's UI, or null. */
  erpUrl: string | null;
  groups: { label: string; fields: RecordField[] }[];
  tabs: KindTab[];
  related: { type: string; id: number; name: string }[];
  /** The record's version (its modification time, RFC 3339): an edit sends it back. */
  version?: string;
  /** Where the portal's last create or edit of the record stands with the ERP. */
  write?: WriteState;
  /**
   * The ISO 4217 code of the record's money (its fields and its lines) when it is not the
   * base currency; absent when it is (each money field's `currency`).
   */
  currency?: string;
  /** The server is fetching the whole document from the ERP (sublists): ask again shortly. */
  completing?: boolean;
  /** The record waits for a decision the caller may make now (approve or reject it). */
  canApprove?: boolean;
}

/**
 * The ERP sync state of a record's last portal write: "" when in sync, "pending" while on
 * its way, "failed" with the ERP's message.
 */
export interface WriteState {
  state: '' | 'pending' | 'failed';
  error?: string;
}

/**
 * A create (no id) or edit submission (`{product}-crud`): field name → value. Text,
 * status and date as strings ("" or null clears an optional one), references as record
 * ids (null for none), money and quantities as numbers (null for none).
 */
export type SaveFields = Record<string, string | number | boolean | null>;

/** What a save sends: the fields, and for an edit the version the form was opened at. */
export interface SaveInput {
  fields: SaveFields;
  /** The record's version when the form was opened (edits only). */
  version?: string;
  /**
   * Sent as `Idempotency-Key`. On a create, the same key with the same fields answers the
   * record the first attempt made, so a retry after a lost answer never creates twice; an
   * edit's repeat answers the record as it is (a list's inline edit and a change kept on
   * the device send one too).
   */
  idempotencyKey?: string;
  /** The role to save as, when not the current one (a change kept on the device keeps its role). */
  roleId?: number;
}

/** A save's answer: the saved record's view; `unchanged` when the edit changed nothing. */
export type SavedRecord = RecordDetail & { unchanged?: boolean };

/**
 * The body of a 409 answer to an edit: the record's values now (field name → value as a
 * record view shows it) and its new `version`.
 */
export type CurrentValues = Record<string, CellValue> & { version?: string };

/** A tab's rows; for related/custom tabs with a kind the rows are records of that kind. */
export interface TabRows {
  columns: ListColumn[];
  rows: Row[];
  /** More rows exist than the tab shows (the server caps a tab). */
  hasMore?: boolean;
  /** The project's cost-details tab only, when the equipment-charge service is configured. */
  equipment?: EquipmentSection;
  /** For records with a status and an amount: the amounts by status over all the tab's records. */
  totals?: StatusTotals;
}

/**
 * Totals of a set of records by status (a project's credits by transaction type, its
 * invoices by status). Different statuses are never added together.
 */
export interface StatusTotals {
  /** The status field's name and label ("Transaction"). */
  field: string;
  label: string;
  /** The amount field's name, label ("Credits") and type. */
  amount: string;
  amountLabel: string;
  type: FieldType;
  /**
   * In the order of the status's choices; only statuses with records. Each status's amount
   * is per unit (currency, credit type); `estimated` when the set was too large to count.
   */
  groups: { status: string; count: number; totals: UnitTotal[]; estimated?: boolean }[];
}

/**
 * The project's equipment charges from the external equipment-charge service; when it
 * failed, `error` says why (safe to show) and there are no rows.
 */
export interface EquipmentSection {
  columns: ListColumn[];
  rows: Row[];
  error?: string;
}

export interface FileInfo {
  id: number;
  name: string;
  size: number;
  contentType: string;
  modified: string;
  /** For a file added in the portal that the ERP does not have yet: on its way, or refused. */
  write?: WriteState;
}

/** The `{ data }` envelope of every answer. */
export interface Envelope<T> {
  data: T;
}
