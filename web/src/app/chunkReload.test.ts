import { describe, expect, it, vi } from 'vitest';
import { handlePreloadError, RELOAD_MARK_KEY } from './chunkReload';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('handlePreloadError', () => {
  it('reloads once and marks the time', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const event = new Event('vite:preloadError', { cancelable: true });
    expect(handlePreloadError(event, { storage, reload, now: () => 50_000 })).toBe(true);
    expect(reload).toHaveBeenCalledOnce();
    expect(event.defaultPrevented).toBe(true);
    expect(storage.data.get(RELOAD_MARK_KEY)).toBe('50000');
  });

  it('lets the error through when it reloaded moments ago', () => {
    const storage = memoryStorage({ [RELOAD_MARK_KEY]: '50000' });
    const reload = vi.fn();
    const event = new Event('vite:preloadError', { cancelable: true });
    expect(handlePreloadError(event, { storage, reload, now: () => 55_000 })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
  });
});
