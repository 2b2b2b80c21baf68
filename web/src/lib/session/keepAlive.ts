import { ApiError } from '../api/errors';
import type { SavedTokens, TokenTiming } from './persist';

/**
 * Keeping the portal session alive (SPEC §9):
 * - the access token is refreshed 5 minutes before it expires; a token living less than
 *   10 minutes is refreshed at half its life instead (a 2-minute token at 1 minute), so a
 *   short lifetime never means refreshing in a loop;
 * - a token is treated as expired 30 s before its expiry: a call about to use such a
 *   token waits for a refresh first;
 * - after a failed refresh (network, server trouble) it retries with back-off: 30 s,
 *   doubling, at most 16 minutes;
 * - one refresh at a time: callers share the refresh in flight, and across tabs a Web
 *   Lock serialises them; inside the lock a tab first adopts a pair another tab already
 *   rotated (shared cookies), so a refresh token is never presented twice (which the
 *   server takes as theft and answers by revoking the session).
 */
export const REFRESH_LEAD_MS = 5 * 60_000;
export const EXPIRY_MARGIN_MS = 30_000;
export const RETRY_START_MS = 30_000;
export const RETRY_MAX_MS = 16 * 60_000;
/** Browsers run longer timeouts at once (32-bit delay). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
export const REFRESH_LOCK = 'portico-token-refresh';

/** When to refresh a token: 5 min before expiry, but not before half its life. */
export function refreshAt(timing: TokenTiming): number {
  const life = timing.expiresAt - timing.issuedAt;
  return Math.max(timing.expiresAt - REFRESH_LEAD_MS, timing.issuedAt + life / 2);
}

/** A token is treated as expired 30 s before it expires; no timing means expired. */
export function isExpiring(timing: TokenTiming | null, now: number): boolean {
  return !timing || now >= timing.expiresAt - EXPIRY_MARGIN_MS;
}

/** The next retry delay after a failed refresh: 30 s, 60 s, … at most 16 minutes. */
export function nextRetryDelay(previous: number | null): number {
  return previous === null ? RETRY_START_MS : Math.min(previous * 2, RETRY_MAX_MS);
}

/**
 * The token's timing in this browser's clock. `tokenExpiresAt` is in the server's clock;
 * the answer's Date header (server clock, whole seconds) gives the offset, so a browser
 * whose clock is off still refreshes on time.
 */
export function timingFromAnswer(tokenExpiresAt: string, receivedAt: number, serverDate?: string | null): TokenTiming {
  const expires = Date.parse(tokenExpiresAt);
  if (Number.isNaN(expires)) return { issuedAt: receivedAt - 1, expiresAt: receivedAt };
  const server = serverDate ? Date.parse(serverDate) : Number.NaN;
  // The Date header is truncated to the second: assume the middle of that second.
  const offset = Number.isNaN(server) ? 0 : receivedAt - (server + 500);
  const expiresAt = expires + offset;
  return { issuedAt: Math.min(receivedAt, expiresAt - 1), expiresAt };
}

/** Whether a failed refresh is worth retrying (no answer, or the server in trouble). */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 511);
}

export interface RotatedTokens {
  token: string;
  refreshToken: string;
  timing: TokenTiming;
}

export interface KeepAliveDeps {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** This tab's tokens. */
  current(): { token: string | null; refreshToken: string | null; tokenTiming: TokenTiming | null };
  /** The saved (cross-tab) tokens. */
  saved(): SavedTokens;
  /** Calls the server to rotate `refreshToken`. */
  rotate(refreshToken: string): Promise<RotatedTokens>;
  /** Stores a pair this tab rotated (and saves it for the other tabs). */
  store(tokens: RotatedTokens): void;
  /** Takes over a pair another tab rotated (already saved). */
  adopt(tokens: RotatedTokens): void;
  /** Runs `fn` holding the cross-tab refresh lock. */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  /** The session is over (511 from the server, or signed out in another tab). */
  onExpired(error: ApiError): void;
}

function sessionEnded(message = 'Your session has ended. Please sign in again.'): ApiError {
  return new ApiError('511', message, 511);
}

export class KeepAlive {
  private timer: unknown = null;
  private retryDelay: number | null = null;
  private inflight: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly deps: KeepAliveDeps) {}

  /** Starts (or re-plans) the timer for the current token. */
  start(): void {
    this.stopped = false;
    this.retryDelay = null;
    this.plan();
  }

  /** Stops the timer (logout, session over). */
  stop(): void {
    this.stopped = true;
    this.retryDelay = null;
    this.clear();
  }

  /** Whether a retry after a failed refresh is pending. */
  get retrying(): boolean {
    return this.retryDelay !== null;
  }

  /** The delay of the pending retry, if any (for tests and diagnostics). */
  get currentRetryDelay(): number | null {
    return this.retryDelay;
  }

  /**
   * Refreshes now, sharing a refresh already in flight. Rejects with the failure; a 511
   * has then already ended the session, anything else has scheduled a retry.
   */
  refresh(): Promise<void> {
    this.inflight ??= this.deps
      .withLock(() => this.rotateOrAdopt())
      .then(
        () => {
          this.retryDelay = null;
          this.plan();
        },
        (error: unknown) => {
          if (isTransient(error)) {
            this.retryDelay = nextRetryDelay(this.retryDelay);
            this.arm(this.retryDelay);
          } else {
            this.stop();
            this.deps.onExpired(error instanceof ApiError ? error : sessionEnded());
          }
          throw error;
        },
      )
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  /**
   * Before a call: when the token is within 30 s of expiry, wait for a refresh. A refresh
   * that fails for a transient reason lets the call go ahead (the server decides); one
   * that ended the session rejects.
   */
  async ensureFresh(): Promise<void> {
    const { token, tokenTiming } = this.deps.current();
    if (!token || !isExpiring(tokenTiming, this.deps.now())) return;
    try {
      await this.refresh();
    } catch (error) {
      if (!isTransient(error)) throw error;
    }
  }

  /**
   * After a call was answered 511: was it only the access token? "renewed" when the
   * session now has a newer token (another refresh got there first, or this one worked),
   * so the call is worth one retry; "ended" when the session is really over (the refresh
   * was refused too, and the session has been ended); "unavailable" when the refresh
   * could not be tried now (network, server trouble): the retry timer is running.
   */
  async recover(tokenUsed: string | null): Promise<'renewed' | 'ended' | 'unavailable'> {
    const { token, refreshToken } = this.deps.current();
    if (token && token !== tokenUsed) return 'renewed';
    if (!refreshToken) return 'ended';
    try {
      await this.refresh();
      return 'renewed';
    } catch (error) {
      return isTransient(error) ? 'unavailable' : 'ended';
    }
  }

  /** The browser is back online or visible again: catch up at once if due. */
  wake(): void {
    if (this.stopped) return;
    const { token, tokenTiming } = this.deps.current();
    if (!token) return;
    if (this.retryDelay !== null || !tokenTiming || this.deps.now() >= refreshAt(tokenTiming)) {
      this.refresh().catch(() => {});
    }
  }

  /** Another tab saved new tokens or signed out: follow it. */
  syncFromSaved(): void {
    const saved = this.deps.saved();
    const mine = this.deps.current();
    if (!mine.token) return;
    if (!saved.refreshToken || !saved.token) {
      this.stop();
      this.deps.onExpired(sessionEnded('You signed out in another window.'));
      return;
    }
    if (saved.refreshToken !== mine.refreshToken && saved.timing) {
      this.deps.adopt({ token: saved.token, refreshToken: saved.refreshToken, timing: saved.timing });
      this.retryDelay = null;
      if (!this.stopped) this.plan();
    }
  }

  private async rotateOrAdopt(): Promise<void> {
    const saved = this.deps.saved();
    const mine = this.deps.current();
    // Another tab rotated while this one waited for the lock (or slept): take its pair.
    if (saved.token && saved.refreshToken && saved.timing && saved.refreshToken !== mine.refreshToken) {
      this.deps.adopt({ token: saved.token, refreshToken: saved.refreshToken, timing: saved.timing });
      if (!isExpiring(saved.timing, this.deps.now())) return;
    }
    const refreshToken = this.deps.current().refreshToken;
    if (!refreshToken) throw sessionEnded();
    this.deps.store(await this.deps.rotate(refreshToken));
  }

  private plan(): void {
    if (this.stopped) return;
    const { token, tokenTiming } = this.deps.current();
    if (!token) return this.clear();
    const due = tokenTiming ? refreshAt(tokenTiming) : this.deps.now();
    this.arm(Math.max(0, due - this.deps.now()));
  }

  private arm(delay: number): void {
    this.clear();
    if (this.stopped) return;
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      this.refresh().catch(() => {});
    }, Math.min(delay, MAX_TIMEOUT_MS));
  }

  private clear(): void {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }
}

/** Web Locks when the browser has them (all current ones); otherwise just this tab. */
export function browserLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return fn();
  return locks.request(REFRESH_LOCK, fn) as Promise<T>;
}
