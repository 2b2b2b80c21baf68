/**
 * HTML-entity decoding of API answers (SPEC §7: "parsed as JSON after HTML-entity
 * decoding"). The ERP hands back text with entities (`AT&amp;T`, `O&#39;Brien`).
 * Decoding the raw JSON text before parsing would break on `&quot;` inside a string, so
 * the answer is parsed first and every string in it is decoded: the same result for every
 * answer the literal reading can parse, and no broken JSON for the others.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  bull: '\u2022',
  middot: '\u00b7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  sect: '\u00a7',
  times: '\u00d7',
  divide: '\u00f7',
  semi: ';',
};

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

let scratch: HTMLTextAreaElement | null = null;

/** Entities outside the table: the browser's own decoder (a textarea never runs markup). */
function decodeByBrowser(entity: string): string {
  if (typeof document === 'undefined') return entity;
  scratch ??= document.createElement('textarea');
  scratch.innerHTML = entity;
  const decoded = scratch.value;
  // The HTML parser also decodes legacy prefixes ("&notanentity;" → "¬anentity;"): only a
  // decoding that consumed the whole entity, semicolon included, counts.
  return decoded.includes(';') ? entity : decoded;
}

function fromCodePoint(code: number, original: string): string {
  if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return original;
  return String.fromCodePoint(code);
}

/** Decodes the HTML entities in one string. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (match, body: string) => {
    if (body[0] === '#') {
      const hex = body[1] === 'x' || body[1] === 'X';
      return fromCodePoint(parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10), match);
    }
    return NAMED[body] ?? decodeByBrowser(match);
  });
}

/** Decodes every string (values and keys) in a parsed JSON value. */
export function decodeEntitiesDeep(value: unknown): unknown {
  if (typeof value === 'string') return decodeEntities(value);
  if (Array.isArray(value)) return value.map(decodeEntitiesDeep);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[decodeEntities(key)] = decodeEntitiesDeep(inner);
    return out;
  }
  return value;
}
