/**
 * The debounce behaviour of text inputs (SPEC §5). A call fires `delay` after the last
 * event (keyup by default; 300 ms by default, given as a number of ms or as text with a
 * `ms` or `s` unit). Options, all off by default:
 * - `trim`: trim the value before checking whether it is empty;
 * - `cancelOnEmpty`: an empty value cancels the pending call (and fires nothing);
 * - `lock`: Enter does not fire at once, unless `unlock` is also set. With `lock` off
 *   (the default) Enter fires at once;
 * - `fireOnEmpty`: Enter or Space on an empty value fires at once.
 * The call receives the value as typed (`trim` only affects the emptiness check).
 */
export type DebounceDelay = number | string;

export interface DebounceOptions {
  delay?: DebounceDelay;
  trim?: boolean;
  cancelOnEmpty?: boolean;
  lock?: boolean;
  unlock?: boolean;
  fireOnEmpty?: boolean;
}

export const DEFAULT_DEBOUNCE_MS = 300;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000 };

/** 300 → 300; "300ms" → 300; "1s" → 1000; "1.5 s" → 1500. Rejects anything else. */
export function parseDelay(delay: DebounceDelay | undefined): number {
  if (delay === undefined) return DEFAULT_DEBOUNCE_MS;
  if (typeof delay === 'number') {
    if (!Number.isFinite(delay) || delay < 0) throw new RangeError(`debounce: invalid delay ${delay}`);
    return delay;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/i.exec(delay);
  if (!match) throw new RangeError(`debounce: invalid delay "${delay}" (use a number of ms, or "300ms", "1s")`);
  return Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
}

export type DebouncedCall<E> = (value: string, event: E | undefined) => void;

export interface Debouncer<E> {
  /** Feeds one event: the input's current value and the key pressed (if any). */
  handle(value: string, key: string | undefined, event?: E): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Whether a call is waiting for its delay. */
  pending(): boolean;
}

export interface DebouncerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const globalTimers: DebouncerTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Creates the debounce behaviour around `call`. `options` is read on every event. */
export function createDebouncer<E = unknown>(
  call: DebouncedCall<E>,
  options: () => DebounceOptions,
  timers: DebouncerTimers = globalTimers,
): Debouncer<E> {
  let timer: unknown = null;

  const cancel = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };

  return {
    handle(value, key, event) {
      const opts = options();
      const checked = opts.trim ? value.trim() : value;
      const empty = checked === '';
      if (empty && opts.cancelOnEmpty) {
        cancel();
        return;
      }
      const enterFires = key === 'Enter' && (!opts.lock || !!opts.unlock);
      const emptyFires = empty && !!opts.fireOnEmpty && (key === 'Enter' || key === ' ');
      if (enterFires || emptyFires) {
        cancel();
        call(value, event);
        return;
      }
      cancel();
      timer = timers.setTimeout(() => {
        timer = null;
        call(value, event);
      }, parseDelay(opts.delay));
    },
    cancel,
    pending: () => timer !== null,
  };
}
