import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ALERT_AUTO_HIDE_MS,
  DEFAULT_ALERT_CLASS,
  SUCCESS_ALERT_MS,
  resetAppStore,
  selectAlertClass,
  selectAlertMessage,
  selectAlertTitle,
  useAppStore,
} from './appState';

const store = () => useAppStore.getState();

describe('app state store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-02T03:04:05Z'));
    resetAppStore();
  });

  afterEach(() => {
    resetAppStore();
    vi.useRealTimers();
  });

  it('starts loading with an optional simple spinner and stops it', () => {
    store().startLoading();
    expect(store()).toMatchObject({ isLoading: true, simpleSpinner: false });
    store().stopLoading();
    expect(store().isLoading).toBe(false);
    store().startLoading({ simpleSpinner: true });
    expect(store()).toMatchObject({ isLoading: true, simpleSpinner: true });
  });

  it('showing an alert records a timestamp, stops loading and displays it', () => {
    store().startLoading();
    store().raiseAlert({ title: '404', message: 'Record not found', type: 'alert-danger' });
    expect(store().isLoading).toBe(false);
    expect(store().showAlert).toBe(true);
    expect(store().alert).toEqual({
      title: '404',
      message: 'Record not found',
      type: 'alert-danger',
      timestamp: new Date('2030-01-02T03:04:05Z').getTime(),
    });
    expect(selectAlertClass(store())).toBe('alert-danger');
    expect(selectAlertTitle(store())).toBe('404');
    expect(selectAlertMessage(store())).toBe('Record not found');
  });

  it('defaults the alert class to the primary text class', () => {
    expect(DEFAULT_ALERT_CLASS).toBe('text-primary');
    store().raiseAlert({ message: 'Saved' });
    expect(store().alert?.type).toBe('text-primary');
    expect(selectAlertClass(store())).toBe('text-primary');
  });

  it('auto-hides after 60000 ms by default', () => {
    expect(ALERT_AUTO_HIDE_MS).toBe(60_000);
    store().raiseAlert({ message: 'Hello' });
    vi.advanceTimersByTime(59_999);
    expect(store().showAlert).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store().showAlert).toBe(false);
    expect(store().alert).toBeNull();
  });

  it('auto-hides after a given duration', () => {
    store().raiseAlert({ message: 'Quick', duration: 500 });
    vi.advanceTimersByTime(499);
    expect(store().showAlert).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store().showAlert).toBe(false);
  });

  it('does not hide a newer alert that replaced the first one', () => {
    store().raiseAlert({ message: 'first' });
    vi.advanceTimersByTime(40_000);
    store().raiseAlert({ message: 'second' });
    const second = store().alert;
    expect(second?.timestamp).toBe(new Date('2030-01-02T03:04:05Z').getTime() + 40_000);
    // The first alert's 60 s are up: the second one stays.
    vi.advanceTimersByTime(20_000);
    expect(store().showAlert).toBe(true);
    expect(store().alert).toBe(second);
    // The second alert's own 60 s are up.
    vi.advanceTimersByTime(40_000);
    expect(store().showAlert).toBe(false);
  });

  it('keeps a replacement raised in the same millisecond', () => {
    store().raiseAlert({ message: 'first', duration: 1000 });
    store().raiseAlert({ message: 'second' });
    vi.advanceTimersByTime(1000);
    expect(store().alert?.message).toBe('second');
    expect(store().showAlert).toBe(true);
  });

  it('a success alert goes after 4 s by default; errors and warnings keep the 60 s', () => {
    expect(SUCCESS_ALERT_MS).toBe(4_000);
    store().raiseAlert({ title: 'Project saved', message: '“Cedar Run” is saved.', type: 'alert-success' });
    vi.advanceTimersByTime(3_999);
    expect(store().showAlert).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store().showAlert).toBe(false);

    for (const type of ['alert-danger', 'alert-warning', 'alert-info', 'text-primary']) {
      store().raiseAlert({ message: 'Something', type });
      vi.advanceTimersByTime(59_999);
      expect(store().showAlert, type).toBe(true);
      vi.advanceTimersByTime(1);
      expect(store().showAlert, type).toBe(false);
    }
    // A given duration wins over the success default.
    store().raiseAlert({ message: 'Sent', type: 'alert-success', duration: 10_000 });
    vi.advanceTimersByTime(9_999);
    expect(store().showAlert).toBe(true);
  });

  it('a held alert stays; let go, it gets its full time again', () => {
    store().raiseAlert({ message: 'Saved', type: 'alert-success' });
    vi.advanceTimersByTime(3_000);
    store().holdAlert();
    vi.advanceTimersByTime(120_000);
    expect(store().showAlert).toBe(true);
    store().releaseAlert();
    vi.advanceTimersByTime(3_999);
    expect(store().showAlert).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store().showAlert).toBe(false);
    // Letting go when nothing is shown schedules nothing.
    store().releaseAlert();
    vi.advanceTimersByTime(10_000);
    expect(store().alert).toBeNull();
  });

  it('hide clears the alert at once', () => {
    store().raiseAlert({ title: 't', message: 'm' });
    store().hideAlert();
    expect(store().showAlert).toBe(false);
    expect(store().alert).toBeNull();
    // The pending auto-hide of the cleared alert does not touch a later one.
    store().raiseAlert({ message: 'later', duration: 120_000 });
    vi.advanceTimersByTime(60_000);
    expect(store().alert?.message).toBe('later');
  });

  it('remembers a default list per record type, in local storage too', () => {
    localStorage.clear();
    store().setDefaultList('project', 'customsearch_a');
    store().setDefaultList('vendor', 'customsearch_b');
    store().setDefaultList('project', 'customsearch_c');
    expect(store().defaultLists).toEqual({ project: 'customsearch_c', vendor: 'customsearch_b' });
    expect(JSON.parse(localStorage.getItem('defaultLists')!)).toEqual({ project: 'customsearch_c', vendor: 'customsearch_b' });

    resetAppStore();
    expect(store().defaultLists).toEqual({});
    store().restoreDefaultLists();
    expect(store().defaultLists).toEqual({ project: 'customsearch_c', vendor: 'customsearch_b' });
    localStorage.clear();
  });
});
