/**
 * Recovery from a failed lazy chunk (SPEC §8). After a deploy, a page still open from the
 * previous build asks for hashed chunks that no longer exist (the server answers 404), and
 * Vite raises `vite:preloadError`. The first time, reload the page to pick up the new
 * build; if that already happened moments ago, leave the event unhandled so the error is
 * rethrown and the root error boundary shows it, instead of reloading in a loop.
 */
export const RELOAD_MARK_KEY = 'portico:chunk-reload-at';
const RELOAD_WINDOW_MS = 10_000;

export interface ChunkReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now: () => number;
}

/** Handles one `vite:preloadError` event; returns true when it reloaded. */
export function handlePreloadError(event: Event, deps: ChunkReloadDeps): boolean {
  let last = 0;
  try {
    last = Number(deps.storage.getItem(RELOAD_MARK_KEY)) || 0;
  } catch {
    // Storage unavailable: still reload once per page.
  }
  const now = deps.now();
  if (now - last < RELOAD_WINDOW_MS) return false;
  try {
    deps.storage.setItem(RELOAD_MARK_KEY, String(now));
  } catch {
    // Without storage a second failure would reload again; acceptable.
  }
  event.preventDefault();
  deps.reload();
  return true;
}

export function installChunkReload(win: Window = window): void {
  win.addEventListener('vite:preloadError', (event) =>
    handlePreloadError(event, {
      storage: win.sessionStorage,
      reload: () => win.location.reload(),
      now: () => Date.now(),
    }),
  );
}
