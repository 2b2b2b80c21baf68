import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebouncer, DEFAULT_DEBOUNCE_MS, parseDelay, type DebounceOptions } from './debounce';

function setup(options: DebounceOptions = {}) {
  const call = vi.fn();
  const debouncer = createDebouncer<string>(call, () => options);
  /** Types `value` ending with `key` (keyup of that key). */
  const keyup = (value: string, key = 'a') => debouncer.handle(value, key, `keyup ${key}`);
  return { call, debouncer, keyup };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('parseDelay (SPEC §5: a number, or text with a ms or s unit)', () => {
  it('defaults to 300 ms', () => {
    expect(DEFAULT_DEBOUNCE_MS).toBe(300);
    expect(parseDelay(undefined)).toBe(300);
  });

  it('takes a number of milliseconds', () => {
    expect(parseDelay(0)).toBe(0);
    expect(parseDelay(750)).toBe(750);
  });

  it('takes text in ms or s', () => {
    expect(parseDelay('300ms')).toBe(300);
    expect(parseDelay('1s')).toBe(1000);
    expect(parseDelay('1.5s')).toBe(1500);
    expect(parseDelay(' 250 MS ')).toBe(250);
  });

  it('refuses anything else', () => {
    for (const bad of ['300', 'fast', '1min', '-5ms', '']) expect(() => parseDelay(bad), bad).toThrow(RangeError);
    expect(() => parseDelay(-1)).toThrow(RangeError);
    expect(() => parseDelay(Number.NaN)).toThrow(RangeError);
  });
});

describe('debounce: the default behaviour', () => {
  it('fires 300 ms after the last keyup, with the value and the event', () => {
    const { call, keyup, debouncer } = setup();
    keyup('a');
    vi.advanceTimersByTime(200);
    keyup('ab', 'b');
    expect(debouncer.pending()).toBe(true);
    vi.advanceTimersByTime(299);
    expect(call).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(call).toHaveBeenCalledExactlyOnceWith('ab', 'keyup b');
    expect(debouncer.pending()).toBe(false);
  });

  it('uses the given delay, as a number or as text', () => {
    for (const delay of [1000, '1000ms', '1s'] as const) {
      const { call, keyup } = setup({ delay });
      keyup('abc');
      vi.advanceTimersByTime(999);
      expect(call, String(delay)).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(call, String(delay)).toHaveBeenCalledOnce();
    }
  });

  it('without trim, spaces are a value: "  " is not empty', () => {
    const { call, keyup } = setup({ cancelOnEmpty: true });
    keyup('  ', ' ');
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledWith('  ', 'keyup  ');
  });

  it('an empty value still fires after the delay when no option says otherwise', () => {
    const { call, keyup } = setup();
    keyup('', 'Backspace');
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledWith('', 'keyup Backspace');
  });

  it('cancel drops the pending call', () => {
    const { call, keyup, debouncer } = setup();
    keyup('abc');
    debouncer.cancel();
    vi.advanceTimersByTime(1000);
    expect(call).not.toHaveBeenCalled();
  });
});

describe('debounce option: trim', () => {
  it('trims before the emptiness check, and passes the value as typed', () => {
    const { call, keyup } = setup({ trim: true, cancelOnEmpty: true });
    keyup('abc');
    keyup('   ', ' ');
    vi.advanceTimersByTime(300);
    expect(call).not.toHaveBeenCalled(); // "   " counts as empty, which cancels

    keyup(' abc ', ' ');
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledExactlyOnceWith(' abc ', 'keyup  ');
  });
});

describe('debounce option: cancelOnEmpty', () => {
  it('an empty value cancels the pending call and fires nothing', () => {
    const { call, keyup, debouncer } = setup({ cancelOnEmpty: true });
    keyup('a');
    keyup('', 'Backspace');
    expect(debouncer.pending()).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(call).not.toHaveBeenCalled();
  });

  it('also swallows Enter on an empty value', () => {
    const { call, keyup } = setup({ cancelOnEmpty: true });
    keyup('', 'Enter');
    vi.advanceTimersByTime(1000);
    expect(call).not.toHaveBeenCalled();
  });
});

describe('debounce: Enter and the lock option', () => {
  it('Enter fires at once and drops the pending call (lock off, the default)', () => {
    const { call, keyup, debouncer } = setup();
    keyup('ab', 'b');
    keyup('ab', 'Enter');
    expect(call).toHaveBeenCalledExactlyOnceWith('ab', 'keyup Enter');
    expect(debouncer.pending()).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(call).toHaveBeenCalledOnce();
  });

  it('lock: Enter waits for the delay like any key', () => {
    const { call, keyup } = setup({ lock: true });
    keyup('ab', 'Enter');
    expect(call).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledExactlyOnceWith('ab', 'keyup Enter');
  });

  it('lock + unlock: Enter fires at once again', () => {
    const { call, keyup } = setup({ lock: true, unlock: true });
    keyup('ab', 'Enter');
    expect(call).toHaveBeenCalledExactlyOnceWith('ab', 'keyup Enter');
  });
});

describe('debounce option: fireOnEmpty', () => {
  it('Enter on an empty value fires at once (even when locked)', () => {
    const { call, keyup } = setup({ fireOnEmpty: true, lock: true });
    keyup('', 'Enter');
    expect(call).toHaveBeenCalledExactlyOnceWith('', 'keyup Enter');
  });

  it('Space on an empty value fires at once', () => {
    const { call, keyup } = setup({ fireOnEmpty: true, trim: true });
    keyup(' ', ' ');
    expect(call).toHaveBeenCalledExactlyOnceWith(' ', 'keyup  ');
  });

  it('Space on a non-empty value only restarts the delay', () => {
    const { call, keyup } = setup({ fireOnEmpty: true });
    keyup('ab ', ' ');
    expect(call).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledOnce();
  });

  it('off (the default): Space on an empty value waits for the delay', () => {
    const { call, keyup } = setup();
    keyup('', ' ');
    expect(call).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(call).toHaveBeenCalledOnce();
  });
});
