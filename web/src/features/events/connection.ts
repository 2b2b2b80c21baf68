/**
 * The connection to `GET /api/v1/events`: authenticated like every API call (token
 * refreshed first, bearer and role headers), resumed after a drop with `Last-Event-ID`
 * after a back-off that starts at the server's `retry:` value, and handed to the
 * session's 511 handling when the server refuses the session (at connect, or with an
 * `end` event).
 */
import { apiUrl, errorFromResponse, SESSION_EXPIRED_STATUS, sessionHeaders, sessionHooks } from '../../lib/api';
import { readSse, type SseEvent } from './sse';

export const EVENTS_PATH = '/events';

/** The reconnection delay until the server sends its own `retry:`. */
export const DEFAULT_RETRY_MS = 3_000;

/** The longest wait between two attempts. */
export const MAX_RETRY_MS = 60_000;

/** The wait before attempt `failures + 1`: `retryMs`, doubled per failure, capped. */
export function backoff(retryMs: number, failures: number): number {
  return Math.min(retryMs * 2 ** failures, MAX_RETRY_MS);
}

export interface EventStreamOptions {
  /** Every event but `end` (the stream handles that itself). */
  onEvent(event: SseEvent): void;
  /** The stream is open (true) or not (false). */
  onConnected?(connected: boolean): void;
  /** Waits `ms`, or less when `signal` aborts (tests pass their own). */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

export interface EventStream {
  /** Drops the connection and opens a new one at once (new token or role), resuming after the last event. */
  restart(): void;
  /** Closes the connection for good. */
  stop(): void;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** How one connection ended: dropped (try again later), renewed (at once), or ended for good. */
type Outcome = 'drop' | 'renewed' | 'ended';

/** Opens the event stream of the current session; it runs until stopped or the session ends. */
export function openEventStream(options: EventStreamOptions): EventStream {
  const sleep = options.sleep ?? wait;
  let stopped = false;
  let attempt = new AbortController();
  let lastId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;

  async function connectOnce(signal: AbortSignal): Promise<Outcome> {
    const hooks = sessionHooks();
    await hooks.ensureFresh();
    const { headers, token } = sessionHeaders();
    if (!token) return 'ended';
    if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
    const response = await fetch(apiUrl(EVENTS_PATH), {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
    });
    let expired = response.status === SESSION_EXPIRED_STATUS;
    if (response.ok && response.body) {
      failures = 0;
      options.onConnected?.(true);
      // `end` closes the stream from this side too, whether or not the server does.
      const reading = new AbortController();
      const stopReading = () => reading.abort();
      signal.addEventListener('abort', stopReading, { once: true });
      try {
        await readSse(
          response.body,
          {
            onRetry: (ms) => (retryMs = ms),
            onEvent: (event) => {
              if (event.id !== undefined) lastId = event.id;
              if (event.event !== 'end') return options.onEvent(event);
              expired = true;
              stopReading();
            },
          },
          reading.signal,
        );
      } finally {
        signal.removeEventListener('abort', stopReading);
        options.onConnected?.(false);
      }
    }
    if (!expired) return 'drop';
    const outcome = await hooks.recover(token);
    if (outcome === 'renewed') return 'renewed';
    if (outcome === 'unavailable') return 'drop';
    hooks.onSessionExpired(errorFromResponse(SESSION_EXPIRED_STATUS, 'Network Authentication Required', undefined));
    return 'ended';
  }

  async function run() {
    while (!stopped) {
      const { signal } = attempt;
      const outcome = await connectOnce(signal).catch((): Outcome => 'drop');
      if (outcome === 'ended') stopped = true;
      if (stopped) return;
      if (!signal.aborted && outcome === 'drop') await sleep(backoff(retryMs, failures++), signal);
      if (attempt.signal.aborted) attempt = new AbortController();
    }
  }

  void run();
  return {
    restart: () => attempt.abort(),
    stop: () => {
      stopped = true;
      attempt.abort();
    },
  };
}
