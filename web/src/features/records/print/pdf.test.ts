import { describe, expect, it } from 'vitest';
import { customerKind, invoiceKind, invoiceLines, invoiceRecord, registry } from '../kinds.fixture';
import type { CompanyProfile } from './company';
import { buildPdf, paperFor, pdfText } from './pdf';
import { printDocument } from './printDocument';

const company: CompanyProfile = {
  name: 'Riverbend Ecological Services',
  legalName: 'Riverbend Ecological Services, LLC',
  address: { lines: ['2140 Riverbend Way'], city: 'Eugene', region: 'OR', postalCode: '97401', country: 'US' },
  phone: '(541) 555-0142',
  email: 'accounts@riverbend-eco.example',
  taxId: '93-4416207',
};

const clients = { ...customerKind, address: 'defaultaddress' };
const kinds = registry.map((k) => (k.name === 'customer' ? clients : k));

/** The PDF's bytes as Latin-1 text: its uncompressed content streams hold the strings it draws, WinAnsi-encoded. */
async function pdfSource(blob: Blob): Promise<string> {
  const buffer = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(blob);
  });
  const bytes = new Uint8Array(buffer);
  return Array.from(bytes, (b) => String.fromCharCode(b)).join('');
}

/** How a string is written in the PDF's text operators (`(…) Tj`): WinAnsi bytes, parentheses escaped. */
function drawn(text: string): string {
  return `(${text.replace(/[()\\]/g, '\\$&').replace('€', '\x80')}) Tj`;
}

describe('the PDF of a printable document', () => {
  it('draws the letterhead, title, bill-to address, lines and totals as text', async () => {
    const lines = [...invoiceLines.rows, ...Array.from({ length: 60 }, (_, i) => ({ id: 100 + i, item: `Visit ${i + 1}`, description: 'Field day', quantity: 1, rate: 10, amount: 10 }))];
    const document = printDocument({
      kind: invoiceKind,
      kinds,
      record: invoiceRecord,
      company,
      addresses: new Map([['entity', '1 River Road\nSpringfield, OR 97477']]),
      lines: [{ tab: invoiceKind.tabs.find((t) => t.source === 'lines')!, answer: { ...invoiceLines, rows: lines } }],
    });
    const blob = buildPdf(document, company.address.country);
    expect(blob.type).toBe('application/pdf');
    const source = await pdfSource(blob);
    expect(source.startsWith('%PDF-')).toBe(true);
    expect(source).toContain('/MediaBox [0 0 612. 792.]'); // US Letter
    for (const text of [
      'Riverbend Ecological Services, LLC',
      '2140 Riverbend Way',
      'Eugene, OR 97401',
      'Tax ID 93-4416207',
      'INVOICE',
      'INV-000077',
      'CLIENT',
      'Acme Water',
      '1 River Road',
      'Springfield, OR 97477',
      'Monitoring, Wetland restoration',
      'Quarterly monitoring visit',
      'Total',
      '€1,850.50',
      'AMOUNT REMAINING',
      '€1,250.50',
    ]) {
      expect(source, text).toContain(drawn(text));
    }
    // Sixty-two lines take three pages, the table's header on each.
    expect(source).toContain(drawn('Invoice INV-000077 · Page 3 of 3'));
    expect(source.split(drawn('Description')).length - 1).toBe(3);
  });

  it('draws a document without a letterhead, lines or parties', async () => {
    const document = printDocument({ kind: invoiceKind, kinds, record: { ...invoiceRecord, groups: [] }, company: null, addresses: new Map(), lines: [] });
    const source = await pdfSource(buildPdf(document));
    expect(source).toMatch(/\/MediaBox \[0 0 595\.2\d* 841\.8\d*\]/); // A4
    expect(source).toContain(drawn('INVOICE'));
    expect(source).not.toContain('Riverbend');
  });

  it('writes text the standard fonts can show, a character they lack as "?"', () => {
    expect(pdfText('1\u202F234,50\u00A0€ — “ok” café')).toBe('1 234,50\u00A0€ — “ok” café');
    expect(pdfText('\u22125.00 Ωmega\tline')).toBe('-5.00 ?mega line');
    expect(paperFor('us')).toBe('letter');
    expect(paperFor('DE')).toBe('a4');
    expect(paperFor(undefined)).toBe('a4');
  });
});
