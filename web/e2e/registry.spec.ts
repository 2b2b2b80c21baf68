import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { amountOf, ARTIFACTS, runAxe, signIn, users, watchProblems } from './support';

/** What the tests need of GET /api/v1/kinds. */
interface Kind {
  name: string;
  route: string;
  label: string;
  plural: string;
  fields: { name: string; label: string; type: string; column: string; currency?: string }[];
  tabs: { name: string; label: string; source: string }[];
}

/** NetSuite field ids (run-together, as the ERP spells them) that must never show as labels. */
const RAW_LABELS = ['Huc', 'Defaultaddress', 'Is1099eligible', 'Otherrefnum', 'Salesrep', 'Percentcomplete', 'Projectmanager', 'Projectedenddate', 'Amountremaining'];

let kinds: Kind[] = [];

async function loadKinds(page: Page): Promise<Kind[]> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/kinds' && r.ok());
  await page.goto('/project/list');
  return ((await (await answer).json()) as { data: Kind[] }).data;
}

function kind(name: string): Kind {
  const found = kinds.find((k) => k.name === name);
  if (!found) throw new Error(`no kind ${name}`);
  return found;
}

/** Opens the first record of a kind's list and waits for its page. */
async function openFirst(page: Page, route: string): Promise<string> {
  await page.goto(`/${route}/list`);
  const link = page.getByRole('table', { name: /, page \d+$/ }).locator('tbody tr').first().getByRole('link').first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/${route}/view\\?id=\\d+$`));
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  await expect(page.getByTestId('field-groups')).toBeVisible();
  return name;
}

/** The value shown beside a label (a <dt>/<dd> pair) in the page's main area. */
function valueOf(page: Page, label: string) {
  return page.getByRole('main').locator('dt', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).locator('xpath=following-sibling::dd[1]');
}

/**
 * The text a PDF draws, from its file: jsPDF writes (uncompressed, as the app asks) each line
 * of text as a string operand `(…) Tj`, in the standard fonts' WinAnsi bytes with `\`, `(`
 * and `)` escaped. Returns the strings in drawing order.
 */
function pdfStrings(file: Buffer): string[] {
  const winAnsi: Record<number, string> = { 0x80: '€', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x96: '–', 0x97: '—' };
  const source = file.toString('latin1');
  return [...source.matchAll(/\(((?:[^()\\]|\\.)*)\) Tj/g)].map((m) =>
    m[1]!.replace(/\\(.)/g, '$1').replace(/[\x80-\x9f]/g, (c) => winAnsi[c.charCodeAt(0)] ?? c),
  );
}

/** The invoice kind's lines tab (its item sublist), as the registry lists it. */
function lineItems(): Kind['tabs'][number] {
  const tab = kind('invoice').tabs.find((t) => t.source === 'lines');
  if (!tab) throw new Error('the registry lists no lines tab for invoices');
  return tab;
}

test.describe('the app driven by the kind registry', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
    kinds = await loadKinds(page);
  });

  test('record tabs are titled by record and kind; lists by their plural', async ({ page }) => {
    const problems = await watchProblems(page);
    await page.goto('/project/list');
    await expect(page).toHaveTitle('Projects · Portico');
    const project = await openFirst(page, 'project');
    await expect(page).toHaveTitle(`${project} · Project · Portico`);
    // A sub-tab of the record keeps its title.
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Billing', exact: true }).click();
    await expect(page).toHaveURL(/\/project\/view\/billing\?id=\d+$/);
    await expect(page).toHaveTitle(`${project} · Project · Portico`);

    const invoice = await openFirst(page, 'invoice');
    await expect(page).toHaveTitle(`${invoice} · Invoice · Portico`);
    // Every kind has a view page now: an employee too (a project manager links to one).
    const employee = await openFirst(page, 'employee');
    await expect(page).toHaveTitle(`${employee} · Employee · Portico`);
    expect(await problems()).toEqual([]);
  });

  test('a kind segment the registry does not know is the not-found page', async ({ page }) => {
    await page.goto('/no-such-kind/list');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found/i);
  });

  test('a project shows registry labels and values formatted by type, its client once', async ({ page }) => {
    await openFirst(page, 'project');
    const main = page.getByRole('main');
    const text = (await main.textContent())!;
    for (const raw of RAW_LABELS) expect(text, `no raw field id “${raw}”`).not.toContain(raw);
    expect(text).not.toMatch(/#\d+/);
    await expect(valueOf(page, '% complete')).toHaveText(/^\d+(\.\d)?%$/);
    await expect(valueOf(page, 'Contract value')).toHaveText(/^\$[\d,]+\.\d{2}$/);
    await expect(valueOf(page, 'Start date')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(valueOf(page, 'Project manager').getByRole('link')).toHaveAttribute('href', /^\/employee\/view\?id=\d+$/);
    // The client shows once: in the header's key facts, linked to the client.
    await expect(main.locator('dt', { hasText: /^Client$/ })).toHaveCount(1);
    await expect(valueOf(page, 'Client').getByRole('link')).toHaveAttribute('href', /^\/customer\/view\?id=\d+$/);
    await expect(page.getByRole('heading', { name: 'Related records' })).toHaveCount(0);
  });

  test('a client’s email and phone are links; a vendor’s checkboxes read Yes or No', async ({ page }) => {
    await openFirst(page, 'customer');
    await expect(valueOf(page, 'Email').getByRole('link')).toHaveAttribute('href', /^mailto:[^@\s]+@[^@\s]+$/);
    await expect(valueOf(page, 'Phone').getByRole('link')).toHaveAttribute('href', /^tel:\+?\d+$/);
    await openFirst(page, 'vendor');
    await expect(valueOf(page, '1099 eligible')).toHaveText(/^(Yes|No)$/);
    const text = (await page.getByRole('main').textContent())!;
    for (const raw of RAW_LABELS) expect(text, `no raw field id “${raw}”`).not.toContain(raw);
  });

  test('an invoice shows its amounts in its currency and its line items with their total', async ({ page }) => {
    // The record's answer names its currency when it is not the base currency, which the
    // kind's money fields name.
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/portal-record') && !new URL(r.url()).searchParams.has('tab') && r.ok());
    await openFirst(page, 'invoice');
    const own = ((await (await answer).json()) as { data: { currency?: string } }).data.currency;
    const currency = own ?? kind('invoice').fields.find((f) => f.name === 'total')!.currency!;
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    const inCurrency = (text: string) => expect(text).toBe(format.format(amountOf(text)!.amount));
    inCurrency(await valueOf(page, 'Amount').innerText());
    inCurrency(await valueOf(page, 'Amount remaining').innerText());
    const lines = page.getByRole('table', { name: lineItems().label });
    await expect(lines).toBeVisible();
    expect(await lines.locator('tbody tr').count()).toBeGreaterThan(0);
    const amounts = await lines.locator('tbody tr td:last-child').allTextContents();
    for (const amount of amounts) inCurrency(amount);
    const cents = amounts.reduce((sum, a) => sum + Math.round(amountOf(a)!.amount * 100), 0);
    const total = lines.getByRole('rowheader', { name: 'Total' }).locator('xpath=following-sibling::td[1]');
    await expect(total).toHaveText(format.format(cents / 100));
    // The invoice's amount is its lines' total.
    await expect(valueOf(page, 'Amount')).toHaveText((await total.textContent())!);
  });

  test('the printable invoice: a sheet without the app’s chrome, printable', async ({ page }) => {
    const problems = await watchProblems(page);
    const invoice = await openFirst(page, 'invoice');
    const id = new URL(page.url()).searchParams.get('id');
    await page.getByRole('link', { name: 'Print' }).click();
    await expect(page).toHaveURL(new RegExp(`/invoice/view/print\\?id=${id}$`));
    const sheet = page.getByTestId('print-sheet');
    const title = sheet.getByRole('heading', { level: 1, name: 'Invoice' });
    await expect(title).toBeVisible();
    await expect(sheet.getByText(invoice, { exact: true })).toBeVisible();
    // The company's letterhead heads the sheet, above the title: the demo company's legal
    // name, address and contact lines (internal/demo Company).
    const letterhead = sheet.getByTestId('letterhead');
    await expect(letterhead).toContainText('Riverbend Ecological Services, LLC');
    await expect(letterhead.locator('address')).toHaveText('2140 Riverbend Way\nSuite 200\nEugene, OR 97401\nUnited States');
    await expect(letterhead).toContainText('Phone (541) 555-0142');
    expect((await letterhead.boundingBox())!.y).toBeLessThan((await title.boundingBox())!.y);
    // The client it bills, with the address its record keeps, on two lines.
    const billTo = sheet.locator('dd address');
    await expect(billTo).toHaveText(/^\d+ .+\n.+, [A-Z]{2} \d{5}$/);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page).toHaveTitle(`${invoice} · Invoice · Portico`);
    const total = sheet.getByRole('table', { name: lineItems().label }).getByRole('rowheader', { name: 'Total' });
    await expect(total).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

    // The PDF: the same document as text, named after the invoice's number.
    const number = (await title.locator('xpath=following-sibling::p[1]').textContent())!.trim();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`Invoice ${number}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const drawn = pdfStrings(pdf);
    const [street, place] = (await billTo.textContent())!.split('\n');
    const client = (await billTo.locator('xpath=..').locator('a').first().textContent())!.trim();
    const lineTotal = (await total.locator('xpath=following-sibling::td[1]').textContent())!.trim();
    for (const text of ['Riverbend Ecological Services, LLC', '2140 Riverbend Way', 'INVOICE', number, 'CLIENT', client, street!, place!, 'Total', lineTotal]) {
      expect(drawn, `the PDF draws ${JSON.stringify(text)}`).toContain(text);
    }
    // The bill-to address comes under the client's name.
    expect(drawn.indexOf(street!)).toBeGreaterThan(drawn.indexOf(client));
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/invoice-print.png`, fullPage: true });
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(page.getByRole('link', { name: 'Back to the invoice' })).toBeHidden();
    await expect(sheet).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/invoice-print-media.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('link', { name: 'Back to the invoice' }).click();
    await expect(page.getByRole('heading', { level: 1, name: invoice, exact: true })).toBeVisible();
    expect(await problems()).toEqual([]);
  });

  test('the printable invoice with its letterhead at 1280 and 390 px, light and dark: axe-clean, white paper, no sideways scroll', async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openFirst(page, 'invoice');
    await page.getByRole('link', { name: 'Print' }).click();
    const sheet = page.getByTestId('print-sheet');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height, size] of [
        [1280, 800, '1280'],
        [390, 844, '390'],
      ] as const) {
        await page.setViewportSize({ width, height });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await expect(sheet.getByTestId('letterhead')).toBeVisible();
        await expect(sheet.getByRole('table', { name: lineItems().label })).toBeVisible();
        // The sheet is paper in either scheme.
        expect(await sheet.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `no page-wide horizontal scrolling (${size}px, ${scheme})`).toBeLessThanOrEqual(0);
        const blocking = (await runAxe(page)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${size}px, ${scheme}`).toEqual([]);
        await page.screenshot({ path: `${ARTIFACTS}/invoice-print-${size}-${scheme}.png`, fullPage: true });
      }
    }
  });

  test('screenshots: a project, an invoice and a vendor bill at 1280 and 390 px, light and dark', async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const project = await openFirst(page, 'project');
    const projectUrl = page.url();
    await openFirst(page, 'invoice');
    const invoiceUrl = page.url();
    await openFirst(page, 'vendorbill');
    const billUrl = page.url();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height, size] of [
        [1280, 800, '1280'],
        [390, 844, '390'],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const [name, url] of [
          ['project', projectUrl],
          ['invoice', invoiceUrl],
          ['vendorbill', billUrl],
        ] as const) {
          await page.goto(url);
          await expect(page.getByTestId('field-groups')).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
          if (name === 'invoice') await expect(page.getByTestId('line-items').locator('table')).toBeVisible();
          // The header's account is the A/P account the bill is owed on (its lines carry expense accounts).
          if (name === 'vendorbill') await expect(page.getByTestId('field-groups').getByText('A/P account', { exact: true })).toBeVisible();
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `no page-wide horizontal scrolling (${name}, ${size}px, ${scheme})`).toBeLessThanOrEqual(0);
          if (name !== 'project') {
            // Line items wrap between words, never inside one: each word of each cell sits on one line.
            const cut = await page.getByTestId('line-items').locator('tbody td').evaluateAll((cells) =>
              cells.flatMap((cell) => {
                const words: string[] = [];
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                  for (const m of (text.textContent ?? '').matchAll(/\S+/g)) {
                    const range = document.createRange();
                    range.setStart(text, m.index);
                    range.setEnd(text, m.index + m[0].length);
                    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                    if (lines.size > 1) words.push(m[0]);
                  }
                }
                return words;
              }),
            );
            expect(cut, `words cut across lines (${name}, ${size}px)`).toEqual([]);
          }
          await page.screenshot({ path: `${ARTIFACTS}/registry-${name}-${size}-${scheme}.png`, fullPage: true });
        }
      }
    }
    expect(project).not.toBe('');
  });
});
