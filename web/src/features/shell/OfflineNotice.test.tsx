import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACK_ONLINE_MS, OfflineNotice } from './OfflineNotice';

function goOffline(offline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  act(() => {
    window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
  });
}

describe('OfflineNotice', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('says nothing while online', () => {
    render(<OfflineNotice />, { wrapper: MantineProvider });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('says the connection is lost and what it means, then that it is back, for a moment', () => {
    vi.useFakeTimers();
    render(<OfflineNotice />, { wrapper: MantineProvider });
    goOffline(true);
    expect(screen.getByRole('status')).toHaveTextContent('You are offline. What you see may be out of date; changes you save are kept on this device and sent when the connection is back.');
    goOffline(false);
    expect(screen.getByRole('status')).toHaveTextContent('Back online.');
    act(() => vi.advanceTimersByTime(BACK_ONLINE_MS));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
