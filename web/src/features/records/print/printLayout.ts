/**
 * What goes where on a record's printable document, computed once for both of its forms:
 * the sheet on screen (RecordPrintPage) and its PDF (printDocument.ts, pdf.ts). Built from
 * the registry's fields like every record page, so any kind with line items prints.
 */
import { recordValues, type FieldEntry } from '../FieldGroups';
import { isRef } from '../format';
import { kindByName } from '../kinds';
import type { Kind, RecordDetail } from '../types';

/** Where each declared field goes on the sheet. */
export interface PrintLayout {
  /** Dates, number-like and plain facts: the block beside the title. */
  facts: FieldEntry[];
  /** Who and what it concerns: the references (client or vendor, project). */
  parties: FieldEntry[];
  /** The amounts, under the lines. */
  amounts: FieldEntry[];
  /** What the document is for (the record's name) when it says more than its number; else "". */
  subject: string;
}

/** The sheet's blocks from the kind's fields; the title and number head the sheet, empty fields are left out. */
export function printLayout(kind: Kind, record: RecordDetail): PrintLayout {
  const values = recordValues(record);
  const layout: PrintLayout = { facts: [], parties: [], amounts: [], subject: record.title && record.title !== record.code ? record.title : '' };
  for (const field of kind.fields) {
    if (field.column === 'title' || field.column === 'code') continue;
    const value = values.get(field.name)?.value;
    if (value === null || value === undefined || value === '') continue;
    const entry = { field, value };
    if (field.type === 'reference') layout.parties.push(entry);
    else if (field.type === 'money' || field.type === 'quantity') layout.amounts.push(entry);
    else layout.facts.push(entry);
  }
  return layout;
}

/** Where a party's address is read: its record (kind and id) and the field of it that holds the address. */
export interface PartyAddressSource {
  kind: Kind;
  id: number;
  field: string;
}

/**
 * Where to read the address of a party the document names (the client an invoice bills, the
 * vendor of a bill): its record, when its kind keeps an address (Kind.address); else null.
 */
export function partyAddressSource(entry: FieldEntry, kinds: readonly Kind[]): PartyAddressSource | null {
  const kind = entry.field.type === 'reference' ? kindByName(kinds, entry.field.ref) : undefined;
  const id = isRef(entry.value) ? entry.value.id : 0;
  return kind?.address && id > 0 ? { kind, id, field: kind.address } : null;
}

/** The address a party's record keeps in `field`, as written (its lines); "" when it has none. */
export function partyAddress(party: RecordDetail, field: string): string {
  const address = recordValues(party).get(field)?.value;
  return typeof address === 'string' ? address.trim() : '';
}

/** The document's file name: its kind and number, "Invoice INV-1042.pdf" (its id when it has no number). */
export function printFilename(kind: Kind, record: Pick<RecordDetail, 'code' | 'id'>): string {
  const name = `${kind.label} ${record.code || record.id}`.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-');
  return `${name}.pdf`;
}
