import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import {
  EXPIRY_MARGIN_MS,
  KeepAlive,
  REFRESH_LEAD_MS,
  RETRY_MAX_MS,
  RETRY_START_MS,
  isExpiring,
  isTransient,
  nextRetryDelay,
  refreshAt,
  timingFromAnswer,
  type KeepAliveDeps,
  type RotatedTokens,
} from './keepAlive';
import type { SavedTokens, TokenTiming } from './persist';

const MIN = 60_000;
const T0 = new Date('2030-01-01T09:00:00Z').getTime();

describe('timing rules (SPEC §9)', () => {
  it('refreshes 5 minutes before expiry', () => {
    expect(REFRESH_LEAD_MS).toBe(5 * MIN);
    expect(refreshAt({ issuedAt: T0, expiresAt: T0 + 15 * MIN })).toBe(T0 + 10 * MIN);
    expect(refreshAt({ issuedAt: T0, expiresAt: T0 + 60 * MIN })).toBe(T0 + 55 * MIN);
  });

  it('refreshes a short-lived token at half its life, never in a loop', () => {
    expect(refreshAt({ issuedAt: T0, expiresAt: T0 + 2 * MIN })).toBe(T0 + MIN);
    expect(refreshAt({ issuedAt: T0, expiresAt: T0 + 6 * MIN })).toBe(T0 + 3 * MIN);
  });

  it('treats a token as expired 30 s before its expiry', () => {
    expect(EXPIRY_MARGIN_MS).toBe(30_000);
    const timing = { issuedAt: T0, expiresAt: T0 + 15 * MIN };
    expect(isExpiring(timing, T0 + 15 * MIN - 30_001)).toBe(false);
    expect(isExpiring(timing, T0 + 15 * MIN - 30_000)).toBe(true);
    expect(isExpiring(null, T0)).toBe(true);
  });

  it('backs off 30 s, doubling, at most 16 minutes', () => {
    expect(RETRY_START_MS).toBe(30_000);
    expect(RETRY_MAX_MS).toBe(16 * MIN);
    const delays: number[] = [];
    let d: number | null = null;
    for (let i = 0; i < 8; i++) delays.push((d = nextRetryDelay(d)));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000]);
  });

  it('turns the server expiry into this browser’s clock using the Date header', () => {
    // The browser's clock is 10 minutes fast.
    const receivedAt = T0 + 10 * MIN;
    const timing = timingFromAnswer(new Date(T0 + 15 * MIN).toISOString(), receivedAt, new Date(T0).toUTCString());
    expect(timing.expiresAt).toBe(T0 + 25 * MIN - 500);
    expect(timing.issuedAt).toBe(receivedAt);
    // Without a Date header, the server's time is taken as is.
    expect(timingFromAnswer(new Date(T0 + 15 * MIN).toISOString(), T0, null)).toEqual({ issuedAt: T0, expiresAt: T0 + 15 * MIN });
    // An unreadable expiry means "refresh now".
    expect(timingFromAnswer('garbage', T0)).toEqual({ issuedAt: T0 - 1, expiresAt: T0 });
  });

  it('retries after network and server trouble, not after a refusal', () => {
    expect(isTransient(new ApiError('TypeError', 'Failed to fetch', 0))).toBe(true);
    expect(isTransient(new ApiError('503', 'x', 503))).toBe(true);
    expect(isTransient(new ApiError('429', 'x', 429))).toBe(true);
    expect(isTransient(new ApiError('511', 'x', 511))).toBe(false);
    expect(isTransient(new ApiError('400', 'x', 400))).toBe(false);
    expect(isTransient(new TypeError('boom'))).toBe(true);
  });
});

/** A session in memory plus the "saved" (cross-tab) copy, with fake timers. */
function harness(options: { ttl?: number } = {}) {
  const ttl = options.ttl ?? 2 * MIN;
  let n = 0;
  const mine: { token: string | null; refreshToken: string | null; tokenTiming: TokenTiming | null } = {
    token: 'access-0',
    refreshToken: 'refresh-0',
    tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + ttl },
  };
  let saved: SavedTokens = { token: mine.token, refreshToken: mine.refreshToken, timing: mine.tokenTiming };
  const rotate = vi.fn(async (refreshToken: string): Promise<RotatedTokens> => {
    expect(refreshToken).toBe(`refresh-${n}`);
    n++;
    const now = Date.now();
    return { token: `access-${n}`, refreshToken: `refresh-${n}`, timing: { issuedAt: now, expiresAt: now + ttl } };
  });
  const onExpired = vi.fn();
  const deps: KeepAliveDeps = {
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    current: () => mine,
    saved: () => saved,
    rotate,
    store: (t) => {
      Object.assign(mine, { token: t.token, refreshToken: t.refreshToken, tokenTiming: t.timing });
      saved = { token: t.token, refreshToken: t.refreshToken, timing: t.timing };
    },
    adopt: (t) => Object.assign(mine, { token: t.token, refreshToken: t.refreshToken, tokenTiming: t.timing }),
    withLock: (fn) => fn(),
    onExpired,
  };
  const keepAlive = new KeepAlive(deps);
  return {
    keepAlive,
    mine,
    rotate,
    onExpired,
    /** Another tab rotated: the saved copy moves on. */
    otherTabRotated() {
      n++;
      const now = Date.now();
      saved = { token: `access-${n}`, refreshToken: `refresh-${n}`, timing: { issuedAt: now, expiresAt: now + ttl } };
    },
    otherTabSignedOut() {
      saved = { token: null, refreshToken: null, timing: null };
    },
  };
}

describe('KeepAlive', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('with 2-minute tokens refreshes every minute, so the session outlives many tokens', async () => {
    const h = harness({ ttl: 2 * MIN });
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(MIN - 1);
    expect(h.rotate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.rotate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(h.rotate).toHaveBeenCalledTimes(11);
    expect(h.mine.token).toBe('access-11');
    expect(isExpiring(h.mine.tokenTiming, Date.now())).toBe(false);
    expect(h.onExpired).not.toHaveBeenCalled();
  });

  it('with 15-minute tokens refreshes 5 minutes before expiry', async () => {
    const h = harness({ ttl: 15 * MIN });
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(10 * MIN - 1);
    expect(h.rotate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.rotate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(h.rotate).toHaveBeenCalledTimes(2);
  });

  it('retries a failed refresh after 30 s, 60 s, 120 s … up to 16 minutes, then resumes the schedule', async () => {
    const h = harness({ ttl: 15 * MIN });
    const offline = new ApiError('TypeError', 'Failed to fetch', 0);
    h.rotate.mockRejectedValueOnce(offline).mockRejectedValueOnce(offline).mockRejectedValueOnce(offline);
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(h.rotate).toHaveBeenCalledTimes(1);
    expect(h.keepAlive.currentRetryDelay).toBe(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.rotate).toHaveBeenCalledTimes(2);
    expect(h.keepAlive.currentRetryDelay).toBe(60_000);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(h.rotate).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.rotate).toHaveBeenCalledTimes(3);
    expect(h.keepAlive.currentRetryDelay).toBe(120_000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.rotate).toHaveBeenCalledTimes(4);
    expect(h.keepAlive.retrying).toBe(false);
    expect(h.mine.token).toBe('access-1');
    expect(h.onExpired).not.toHaveBeenCalled();
  });

  it('caps the back-off at 16 minutes', async () => {
    const h = harness({ ttl: 15 * MIN });
    h.rotate.mockRejectedValue(new ApiError('503', 'Service Unavailable', 503));
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      seen.push(h.keepAlive.currentRetryDelay!);
      await vi.advanceTimersByTimeAsync(h.keepAlive.currentRetryDelay!);
    }
    expect(seen).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000]);
  });

  it('ends the session when the refresh is refused (511)', async () => {
    const h = harness();
    const refused = new ApiError('511', 'Your session has ended.', 511);
    h.rotate.mockRejectedValue(refused);
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(MIN);
    expect(h.onExpired).toHaveBeenCalledWith(refused);
    await vi.advanceTimersByTimeAsync(30 * MIN);
    expect(h.rotate).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between simultaneous callers', async () => {
    const h = harness();
    let release!: () => void;
    h.rotate.mockImplementationOnce(
      () =>
        new Promise<RotatedTokens>((resolve) => {
          release = () => resolve({ token: 'access-1', refreshToken: 'refresh-1', timing: { issuedAt: Date.now(), expiresAt: Date.now() + 2 * MIN } });
        }),
    );
    const a = h.keepAlive.refresh();
    const b = h.keepAlive.refresh();
    expect(a).toBe(b);
    await Promise.resolve();
    release();
    await Promise.all([a, b]);
    expect(h.rotate).toHaveBeenCalledTimes(1);
  });

  it('before a call, refreshes a token within 30 s of expiry, and only then', async () => {
    const h = harness({ ttl: 15 * MIN });
    await h.keepAlive.ensureFresh();
    expect(h.rotate).not.toHaveBeenCalled();
    vi.setSystemTime(T0 + 15 * MIN - 30_000);
    await h.keepAlive.ensureFresh();
    expect(h.rotate).toHaveBeenCalledTimes(1);
    expect(h.mine.token).toBe('access-1');
  });

  it('lets a call go ahead when the refresh before it fails for a network reason', async () => {
    const h = harness({ ttl: 15 * MIN });
    h.rotate.mockRejectedValueOnce(new ApiError('TypeError', 'Failed to fetch', 0));
    vi.setSystemTime(T0 + 15 * MIN);
    await expect(h.keepAlive.ensureFresh()).resolves.toBeUndefined();
    h.rotate.mockRejectedValueOnce(new ApiError('511', 'ended', 511));
    await vi.advanceTimersByTimeAsync(0);
    await expect(h.keepAlive.ensureFresh()).rejects.toMatchObject({ status: 511 });
  });

  it('adopts a pair another tab rotated instead of presenting a used refresh token', async () => {
    const h = harness({ ttl: 2 * MIN });
    h.keepAlive.start();
    await vi.advanceTimersByTimeAsync(30_000);
    h.otherTabRotated();
    await vi.advanceTimersByTimeAsync(30_000);
    // Due now by this tab's clock, but the saved pair is fresh: adopt it, rotate nothing.
    expect(h.rotate).not.toHaveBeenCalled();
    expect(h.mine.refreshToken).toBe('refresh-1');
    // Next time round it rotates the adopted token.
    await vi.advanceTimersByTimeAsync(MIN);
    expect(h.rotate).toHaveBeenCalledTimes(1);
    expect(h.rotate).toHaveBeenCalledWith('refresh-1');
  });

  it('follows another tab’s rotation and sign-out as they happen (storage events)', () => {
    const h = harness();
    h.keepAlive.start();
    h.otherTabRotated();
    h.keepAlive.syncFromSaved();
    expect(h.mine.token).toBe('access-1');
    h.otherTabSignedOut();
    h.keepAlive.syncFromSaved();
    expect(h.onExpired).toHaveBeenCalledWith(expect.objectContaining({ status: 511, message: 'You signed out in another window.' }));
  });

  it('after a 511 on a call: renews, or says the session is over, or that it cannot tell now', async () => {
    const h = harness();
    await expect(h.keepAlive.recover('access-0')).resolves.toBe('renewed');
    expect(h.mine.token).toBe('access-1');
    // Someone already renewed since that call left.
    await expect(h.keepAlive.recover('access-0')).resolves.toBe('renewed');
    expect(h.rotate).toHaveBeenCalledTimes(1);

    h.rotate.mockRejectedValueOnce(new ApiError('TypeError', 'offline', 0));
    await expect(h.keepAlive.recover('access-1')).resolves.toBe('unavailable');
    h.rotate.mockRejectedValueOnce(new ApiError('511', 'ended', 511));
    await expect(h.keepAlive.recover('access-1')).resolves.toBe('ended');
    expect(h.onExpired).toHaveBeenCalledOnce();
  });

  it('catches up at once when the browser wakes after the refresh was due', async () => {
    const h = harness({ ttl: 15 * MIN });
    h.keepAlive.start();
    // The machine slept: the clock jumped, the timer did not fire.
    vi.setSystemTime(T0 + 12 * MIN);
    h.keepAlive.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.rotate).toHaveBeenCalledTimes(1);
    h.keepAlive.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.rotate).toHaveBeenCalledTimes(1);
  });

  it('stops refreshing after stop()', async () => {
    const h = harness();
    h.keepAlive.start();
    h.keepAlive.stop();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(h.rotate).not.toHaveBeenCalled();
  });
});
