/**
 * A record's printable document as a PDF, drawn with jsPDF as real text (selectable,
 * searchable, read by screen readers and accounting systems), never as a picture of the
 * sheet: the letterhead and the title with its number, the facts, the parties with their
 * addresses, what it is for, the line items as tables (their header again on each page,
 * their total), and the amounts. The text is printDocument's, so it reads exactly as the
 * sheet on screen. This module and jsPDF load only when a user asks for a PDF
 * (RecordPrintPage imports it on the click).
 *
 * The PDF uses the standard Helvetica fonts, whose encoding (WinAnsi) covers Western
 * European text, the euro and pound signs and typographic quotes and dashes; a character
 * beyond it prints as "?" (pdfText) rather than corrupting its line.
 */
import { jsPDF } from 'jspdf';
import type { PrintDocument, PrintEntry, PrintTable } from './printDocument';

/** Characters outside Latin-1 that the standard fonts' WinAnsi encoding has (jsPDF maps them). */
const WIN_ANSI_EXTRA = new Set('ƒ–—‘’‚“”„†‡•…€‰‹›ˆ™ŒœŠšŸŽž˜');

/**
 * `text` as the standard fonts can draw it: spaces of every width (the narrow no-break
 * space some locales group digits with) as a plain space, the minus sign as a hyphen, a
 * character their encoding lacks as "?". (jsPDF writes a line holding any such character
 * in a two-byte form those fonts cannot show: the whole line would be garbled.)
 */
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (/\s/u.test(ch)) out += code === 0xa0 ? ch : ' ';
    else if (ch === '\u2212') out += '-';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else out += code <= 0xff || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

// Measures in points (1/72 in).
const MARGIN = 48;
const FOOTER = 24;
const INK = '#1a1b1e';
const DIMMED = '#495057';
const RULE = '#ced4da';
const SHADE = '#f1f3f5';
const CELL_PAD = 4;

/** The paper a company's documents go on: US Letter in North America, else A4. */
export function paperFor(country: string | undefined): 'letter' | 'a4' {
  return country && ['US', 'CA', 'MX'].includes(country.toUpperCase()) ? 'letter' : 'a4';
}

/** Draws the document and returns it as a PDF file. `country` is the company's (paperFor). */
export function buildPdf(document: PrintDocument, country?: string): Blob {
  const doc = new jsPDF({ unit: 'pt', format: paperFor(country) });
  new Sheet(doc).draw(document);
  const who = document.letterhead?.name;
  doc.setProperties({
    title: pdfText([document.title, document.number].filter(Boolean).join(' ')),
    subject: pdfText(document.subject),
    ...(who ? { author: pdfText(who) } : {}),
    creator: 'Portico',
  });
  return doc.output('blob');
}

/** One drawing of a document: where the pen is, and the page breaks. */
class Sheet {
  private readonly width: number;
  private readonly height: number;
  private y = MARGIN;

  constructor(private readonly doc: jsPDF) {
    this.width = doc.internal.pageSize.getWidth();
    this.height = doc.internal.pageSize.getHeight();
  }

  /** The writing width between the margins. */
  private get inner(): number {
    return this.width - 2 * MARGIN;
  }

  /** Where the writing stops on a page (the footer is below). */
  private get bottom(): number {
    return this.height - MARGIN - FOOTER;
  }

  draw(d: PrintDocument): void {
    this.head(d);
    if (d.facts.length > 0) this.grid(d.facts, 4);
    // Two parties across line up with the facts' first and third columns.
    if (d.parties.length > 0) this.grid(d.parties, 2);
    if (d.subject) {
      this.font(11, 'bold');
      this.lines(this.wrap(d.subject, this.inner), MARGIN, 14);
      this.y += 8;
    }
    for (const table of d.lines) this.table(table);
    if (d.amounts.length > 0) this.amounts(d.amounts);
    this.footers(d);
  }

  /** Sets the font and its colour. */
  private font(size: number, style: 'normal' | 'bold' = 'normal', color = INK): void {
    this.doc.setFont('helvetica', style);
    this.doc.setFontSize(size);
    this.doc.setTextColor(color);
  }

  /** `text` broken into lines of at most `width` in the current font. */
  private wrap(text: string, width: number): string[] {
    return this.doc.splitTextToSize(pdfText(text), width) as string[];
  }

  /** Writes lines from the pen down, `leading` apart; the pen ends under the last. */
  private lines(lines: readonly string[], x: number, leading: number, align: 'left' | 'right' = 'left'): void {
    for (const line of lines) {
      this.y += leading;
      this.doc.text(line, x, this.y, { align, baseline: 'bottom' });
    }
  }

  /** A new page when `height` more does not fit on this one. */
  private room(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.doc.addPage();
    this.y = MARGIN;
    return true;
  }

  /** The letterhead on the left, the title and number on the right, a rule under both. */
  private head(d: PrintDocument): void {
    const top = this.y;
    let left = top;
    if (d.letterhead) {
      const width = this.inner * 0.58;
      this.font(13, 'bold');
      this.lines(this.wrap(d.letterhead.name, width), MARGIN, 16);
      this.font(9, 'normal', DIMMED);
      this.y += 2;
      for (const line of [...d.letterhead.address, ...d.letterhead.contact]) this.lines(this.wrap(line, width), MARGIN, 11.5);
      left = this.y;
    }
    this.y = top;
    this.font(20, 'bold');
    this.lines([pdfText(d.title.toUpperCase())], MARGIN + this.inner, 22, 'right');
    if (d.number) {
      this.font(11, 'bold');
      this.lines([pdfText(d.number)], MARGIN + this.inner, 15, 'right');
    }
    this.y = Math.max(left, this.y) + 10;
    this.doc.setDrawColor(INK);
    this.doc.setLineWidth(1.5);
    this.doc.line(MARGIN, this.y, MARGIN + this.inner, this.y);
    this.y += 14;
  }

  /** Labelled values in rows of `across`: the label small above its value, a party's address under it. */
  private grid(entries: readonly PrintEntry[], across: number): void {
    const gap = 14;
    const cell = (this.inner - gap * (across - 1)) / across;
    for (let start = 0; start < entries.length; start += across) {
      const row = entries.slice(start, start + across);
      const blocks = row.map((e) => {
        this.font(10, 'bold');
        const value = this.wrap(e.text, cell);
        this.font(9);
        const address = (e.address ?? []).flatMap((line) => this.wrap(line, cell));
        return { label: this.wrap(e.label.toUpperCase(), cell), value, address };
      });
      const height = Math.max(...blocks.map((b) => b.label.length * 10 + b.value.length * 13 + b.address.length * 11.5));
      this.room(height);
      const top = this.y;
      let bottom = top;
      blocks.forEach((b, i) => {
        const x = MARGIN + i * (cell + gap);
        this.y = top;
        this.font(7.5, 'normal', DIMMED);
        this.lines(b.label, x, 10);
        this.font(10, 'bold');
        this.lines(b.value, x, 13);
        this.font(9);
        this.lines(b.address, x, 11.5);
        bottom = Math.max(bottom, this.y);
      });
      this.y = bottom + 12;
    }
  }

  /** A section of line items: its title, its columns' header (again on each new page), its rows and total. */
  private table(t: PrintTable): void {
    const widths = this.columnWidths(t);
    const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
    const leading = 11;
    const header = () => {
      this.font(8, 'bold');
      const labels = t.columns.map((c, i) => this.wrap(c.label, widths[i]! - 2 * CELL_PAD));
      const height = Math.max(...labels.map((l) => l.length)) * leading + 2 * CELL_PAD;
      this.doc.setFillColor(SHADE);
      this.doc.rect(MARGIN, this.y, this.inner, height, 'F');
      this.cells(labels, t, xs, widths, leading);
      this.y += height;
    };
    this.room(16 + 3 * leading + 4 * CELL_PAD);
    this.font(11, 'bold');
    this.lines([pdfText(t.title)], MARGIN, 14);
    this.y += 6;
    header();
    for (const row of t.rows) {
      this.font(9);
      const cells = row.map((text, i) => this.wrap(text, widths[i]! - 2 * CELL_PAD));
      const height = Math.max(1, ...cells.map((c) => c.length)) * leading + 2 * CELL_PAD;
      if (this.room(height)) header();
      this.font(9);
      this.cells(cells, t, xs, widths, leading);
      this.y += height;
      this.doc.setDrawColor(RULE);
      this.doc.setLineWidth(0.5);
      this.doc.line(MARGIN, this.y, MARGIN + this.inner, this.y);
    }
    if (t.total) {
      const height = leading + 2 * CELL_PAD;
      if (this.room(height)) header();
      this.doc.setDrawColor(INK);
      this.doc.setLineWidth(1);
      this.doc.line(MARGIN, this.y, MARGIN + this.inner, this.y);
      this.font(9, 'bold');
      const spanEnd = xs[t.total.span]!;
      this.doc.text('Total', spanEnd - CELL_PAD, this.y + CELL_PAD + leading, { align: 'right', baseline: 'bottom' });
      t.total.cells.forEach((text, j) => {
        const i = t.total!.span + j;
        if (text) this.doc.text(pdfText(text), xs[i]! + widths[i]! - CELL_PAD, this.y + CELL_PAD + leading, { align: 'right', baseline: 'bottom' });
      });
      this.y += height;
    }
    this.y += 16;
  }

  /** Writes one row's cells (each already wrapped) at the pen; numbers to the right of their column. */
  private cells(cells: readonly string[][], t: PrintTable, xs: readonly number[], widths: readonly number[], leading: number): void {
    cells.forEach((lines, i) => {
      const numeric = t.columns[i]!.numeric;
      const x = numeric ? xs[i]! + widths[i]! - CELL_PAD : xs[i]! + CELL_PAD;
      lines.forEach((line, k) => this.doc.text(line, x, this.y + CELL_PAD + (k + 1) * leading, { align: numeric ? 'right' : 'left', baseline: 'bottom' }));
    });
  }

  /**
   * The columns' widths across the page: numbers as wide as their widest value (they never
   * wrap); each text column at least as wide as its longest word (a word is never cut), the
   * rest of the width shared in proportion to how much more its widest value needs.
   */
  private columnWidths(t: PrintTable): number[] {
    const measure = (text: string) => this.doc.getTextWidth(pdfText(text)) + 2 * CELL_PAD + 1;
    const natural: number[] = [];
    const least: number[] = [];
    t.columns.forEach((c, i) => {
      this.font(8, 'bold');
      let widest = measure(c.label);
      let word = Math.max(0, ...c.label.split(/\s+/).map(measure));
      this.font(9, c.numeric ? 'bold' : 'normal');
      for (const row of t.rows) {
        const text = row[i] ?? '';
        widest = Math.max(widest, measure(text));
        if (!c.numeric) word = Math.max(word, ...text.split(/\s+/).map(measure));
      }
      if (c.numeric) for (const text of t.total?.cells ?? []) widest = Math.max(widest, measure(text));
      natural.push(widest);
      least.push(c.numeric ? widest : Math.min(Math.max(word, 40), this.inner / 3));
    });
    const sum = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0);
    if (sum(natural) <= this.inner) {
      // Room for every value on one line: the text columns share what is left over.
      const text = sum(natural.filter((_, i) => !t.columns[i]!.numeric));
      const spare = this.inner - sum(natural);
      return natural.map((w, i) => (t.columns[i]!.numeric ? w : w + (text > 0 ? (spare * w) / text : 0)));
    }
    const want = natural.map((w, i) => w - least[i]!);
    const spare = Math.max(this.inner - sum(least), 0);
    return least.map((w, i) => w + (sum(want) > 0 ? (spare * want[i]!) / sum(want) : 0));
  }

  /** The amounts under the lines: a block at the right, each label beside its value. */
  private amounts(entries: readonly PrintEntry[]): void {
    const right = MARGIN + this.inner;
    this.font(10, 'bold');
    const valueWidth = Math.max(...entries.map((e) => this.doc.getTextWidth(pdfText(e.text))));
    this.room(entries.length * 16);
    for (const e of entries) {
      this.y += 16;
      this.font(8, 'normal', DIMMED);
      this.doc.text(pdfText(e.label.toUpperCase()), right - valueWidth - 24, this.y, { align: 'right', baseline: 'bottom' });
      this.font(10, 'bold');
      this.doc.text(pdfText(e.text), right, this.y, { align: 'right', baseline: 'bottom' });
    }
  }

  /** Each page's footer: the document and the page's number among them. */
  private footers(d: PrintDocument): void {
    const pages = this.doc.getNumberOfPages();
    const name = [d.title, d.number].filter(Boolean).join(' ');
    for (let page = 1; page <= pages; page++) {
      this.doc.setPage(page);
      this.font(8, 'normal', DIMMED);
      this.doc.text(pdfText(`${name} · Page ${page} of ${pages}`), this.width / 2, this.height - MARGIN + 8, { align: 'center', baseline: 'bottom' });
    }
  }
}
