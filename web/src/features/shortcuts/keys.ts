/**
 * The app's keyboard shortcuts, as data and pure decisions (Shortcuts.tsx wires them):
 *
 * - `/` focuses the search: the page's own (a list's), else the navbar's;
 * - `g` then a letter goes to a list, letters from the kind registry (`g h` home);
 * - `e` edits the record shown, when the role may;
 * - `?` opens the sheet that lists them.
 *
 * A key pressed while typing (a text box, a select, an editable area), with Ctrl, ⌘ or Alt
 * (Ctrl+K is the command palette's), or while a dialog is open, is left alone.
 */
import type { Kind } from '../records';

/** How long after `g` the letter may come. */
export const GO_TIMEOUT_MS = 1500;

/** The letter of the dashboard ("g h": home); kinds take the others. */
export const HOME_LETTER = 'h';

export interface GoTarget {
  letter: string;
  label: string;
  /** The kind whose list it opens; none for home. */
  kind?: Kind;
}

/**
 * A letter per kind, in registry order: the first free one among the initials of its
 * plural's words, then the other letters of the plural; a kind with no free letter gets
 * none. `h` is home's. The same registry always gives the same letters.
 */
export function goLetters(kinds: readonly Kind[]): GoTarget[] {
  const taken = new Set([HOME_LETTER]);
  const out: GoTarget[] = [{ letter: HOME_LETTER, label: 'Dashboard' }];
  for (const kind of kinds) {
    const words = kind.plural.toLowerCase().split(/[^a-z]+/).filter(Boolean);
    const candidates = [...words.map((w) => w[0]!), ...words.join('')];
    const letter = candidates.find((c) => !taken.has(c));
    if (!letter) continue;
    taken.add(letter);
    out.push({ letter, label: kind.plural, kind });
  }
  return out;
}

/** Whether a key press belongs to what has the focus (typing), not to the shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(target.type);
  }
  return !!target.closest('[role="textbox"], [role="combobox"], [role="searchbox"]');
}

/** What a key press asks for, given the key before it. */
export type ShortcutAction = { kind: 'search' } | { kind: 'sheet' } | { kind: 'edit' } | { kind: 'go-wait' } | { kind: 'go'; letter: string } | null;

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
  defaultPrevented: boolean;
}

/**
 * The shortcut a key press makes: `waitingForGo` says `g` came just before. Null for a
 * key the shortcuts leave alone.
 */
export function actionOf(press: KeyPress, waitingForGo: boolean, dialogOpen: boolean): ShortcutAction {
  if (press.defaultPrevented || press.ctrlKey || press.metaKey || press.altKey || dialogOpen || isTyping(press.target)) return null;
  if (waitingForGo) return /^[a-z]$/.test(press.key) ? { kind: 'go', letter: press.key } : null;
  switch (press.key) {
    case '/':
      return { kind: 'search' };
    case '?':
      return { kind: 'sheet' };
    case 'e':
      return { kind: 'edit' };
    case 'g':
      return { kind: 'go-wait' };
    default:
      return null;
  }
}

/**
 * The search box `/` focuses: the page's own (marked `data-page-search`, a list's search),
 * else the navbar's global search.
 */
export function searchBox(root: ParentNode = document): HTMLElement | null {
  return root.querySelector<HTMLElement>('main [data-page-search]') ?? root.querySelector<HTMLElement>('[role="search"] input');
}

/** Whether a modal dialog (another one than the shortcuts sheet) is open. */
export function dialogOpen(root: ParentNode = document): boolean {
  return !!root.querySelector('[role="dialog"][aria-modal="true"]');
}
