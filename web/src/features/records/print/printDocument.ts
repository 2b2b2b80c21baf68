/**
 * A record's printable document as text, for its PDF (pdf.ts): the same parts, in the same
 * places and read the same way as the sheet on screen shows them — the layout from
 * printLayout, the letterhead from company.ts, values and money through the app's one
 * formatter (format.ts) in the record's currency, the lines and their total as
 * LineItemsTable shows them (lineItems.ts).
 */
import type { FieldEntry } from '../FieldGroups';
import { declaredCurrency, formatValue, isNumeric } from '../format';
import { cellCurrency, columnTotal, linesCurrency, sectionsShown } from '../lineitems/lineItems';
import type { CellValue, Kind, KindTab, ListColumn, RecordDetail, TabRows } from '../types';
import { letterhead, type CompanyProfile, type Letterhead } from './company';
import { partyAddressSource, printFilename, printLayout } from './printLayout';

/** One labelled value: a fact, a party (with its address, when known) or an amount. */
export interface PrintEntry {
  label: string;
  text: string;
  /** A party's address, its lines as written. */
  address?: string[];
}

/** One section of line items as a table of text. */
export interface PrintTable {
  title: string;
  columns: { label: string; numeric: boolean }[];
  rows: string[][];
  /**
   * The footer: "Total" over the columns before the first summable one, then each column's
   * total from it on ("" under a column that does not add up); null when nothing adds up.
   */
  total: { span: number; cells: string[] } | null;
}

/** The document as text, in reading order. */
export interface PrintDocument {
  /** "Invoice INV-1042.pdf". */
  filename: string;
  /** The kind's label ("Invoice") and the record's number. */
  title: string;
  number: string;
  letterhead: Letterhead | null;
  facts: PrintEntry[];
  parties: PrintEntry[];
  subject: string;
  lines: PrintTable[];
  amounts: PrintEntry[];
}

/** What the document is made from: the record, and what its sheet loaded beside it. */
export interface PrintSources {
  kind: Kind;
  kinds: readonly Kind[];
  record: RecordDetail;
  /** The company's profile; null when it could not be read (the document goes without a letterhead). */
  company: CompanyProfile | null;
  /** The parties' addresses by the name of the field that names the party (partyAddressSource). */
  addresses: ReadonlyMap<string, string>;
  /** Each lines tab of the record with its answer, in the registry's order. */
  lines: readonly { tab: KindTab; answer: TabRows }[];
}

/** The document's text from its sources. */
export function printDocument({ kind, kinds, record, company, addresses, lines }: PrintSources): PrintDocument {
  const layout = printLayout(kind, record);
  const entry = (e: FieldEntry): PrintEntry => ({ label: e.field.label, text: formatValue(e.value, e.field.type, { currency: declaredCurrency(e.field, record.currency) }) });
  const shown = sectionsShown(lines.map((l) => l.answer.rows.length));
  return {
    filename: printFilename(kind, record),
    title: kind.label,
    number: record.code,
    letterhead: company ? letterhead(company) : null,
    facts: layout.facts.map(entry),
    parties: layout.parties.map((e) => {
      const address = partyAddressSource(e, kinds) ? addresses.get(e.field.name) : undefined;
      return { ...entry(e), ...(address ? { address: address.split('\n').map((l) => l.trim()).filter(Boolean) } : {}) };
    }),
    subject: layout.subject,
    lines: lines.filter((_, i) => shown[i]).map(({ tab, answer }) => linesTable(kind, tab, answer, record.currency)),
    amounts: layout.amounts.map(entry),
  };
}

/** One section of lines, as LineItemsTable shows it. */
function linesTable(kind: Kind, tab: KindTab, { columns, rows }: TabRows, recordCurrency: string | undefined): PrintTable {
  const currency = linesCurrency(kind, tab, recordCurrency);
  const text = (value: CellValue, column: ListColumn) => formatValue(value, column.type, { currency: cellCurrency(column, currency) });
  const firstTotal = columns.findIndex((c) => c.summable);
  return {
    title: tab.label,
    columns: columns.map((c) => ({ label: c.label, numeric: isNumeric(c.type) })),
    rows: rows.map((row) => columns.map((c) => text(row[c.name], c))),
    total: firstTotal > 0 ? { span: firstTotal, cells: columns.slice(firstTotal).map((c) => (c.summable ? text(columnTotal(rows, c.name), c) : '')) } : null,
  };
}
