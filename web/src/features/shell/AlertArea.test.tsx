import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AlertArea, alertColor } from './AlertArea';
import { LoadingOverlay } from './LoadingOverlay';
import { resetAppStore, useAppStore } from '../../lib/appState';

describe('AlertArea', () => {
  afterEach(() => resetAppStore());

  it('is always present, shows the alert with role="alert" and closes it', async () => {
    renderWithProviders(<AlertArea />);
    expect(screen.getByTestId('alert-area')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    act(() => useAppStore.getState().raiseAlert({ title: '403', message: 'Not allowed', type: 'alert-danger' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('403');
    expect(alert).toHaveTextContent('Not allowed');
    expect(alert).toHaveAttribute('data-alert-class', 'alert-danger');

    await userEvent.click(screen.getByRole('button', { name: 'Close alert' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(useAppStore.getState().showAlert).toBe(false);
  });
});

describe('success alerts', () => {
  afterEach(() => resetAppStore());

  it('are a polite status, errors an alert; pointing at one holds it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(<AlertArea />);
      act(() => useAppStore.getState().raiseAlert({ title: 'Project saved', message: '“Cedar Run” is saved.', type: 'alert-success' }));
      const status = screen.getByRole('status');
      expect(status).toHaveTextContent('Project saved');
      expect(status).toHaveAttribute('aria-live', 'polite');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();

      act(() => void status.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
      act(() => void vi.advanceTimersByTime(10_000));
      expect(screen.getByRole('status')).toHaveTextContent('Project saved');
      act(() => void status.dispatchEvent(new MouseEvent('mouseout', { bubbles: true })));
      act(() => void vi.advanceTimersByTime(4_000));
      expect(screen.queryByRole('status')).not.toBeInTheDocument();

      act(() => useAppStore.getState().raiseAlert({ title: '503', message: 'Try again.', type: 'alert-danger' }));
      expect(screen.getByRole('alert')).toHaveTextContent('Try again.');
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('alert classes', () => {
  afterEach(() => resetAppStore());

  it('map to visible styles; the default is the primary text class', () => {
    expect(alertColor('alert-danger')).toBe('red');
    expect(alertColor('alert-warning')).toBe('yellow');
    expect(alertColor('alert-success')).toBe('teal');
    expect(alertColor('alert-info')).toBe('cyan');
    expect(alertColor('alert-secondary')).toBe('gray');
    expect(alertColor('text-primary')).toBe('indigo');
    expect(alertColor('something-else')).toBe('indigo');
  });

  it('shows the default class and the given class on the alert', () => {
    renderWithProviders(<AlertArea />);
    act(() => useAppStore.getState().raiseAlert({ message: 'Saved' }));
    expect(screen.getByRole('alert')).toHaveAttribute('data-alert-class', 'text-primary');
    expect(screen.getByRole('alert')).toHaveClass('text-primary');
    act(() => useAppStore.getState().raiseAlert({ message: 'Failed', type: 'alert-danger' }));
    expect(screen.getByRole('alert')).toHaveClass('alert-danger');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Saved');
  });

  it('a replacement shows at once and keeps its own time', () => {
    vi.useFakeTimers();
    try {
      renderWithProviders(<AlertArea />);
      act(() => useAppStore.getState().raiseAlert({ message: 'first', duration: 1000 }));
      act(() => void vi.advanceTimersByTime(800));
      act(() => useAppStore.getState().raiseAlert({ message: 'second', duration: 1000 }));
      act(() => void vi.advanceTimersByTime(200));
      expect(screen.getByRole('alert')).toHaveTextContent('second');
      act(() => void vi.advanceTimersByTime(800));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('LoadingOverlay', () => {
  afterEach(() => resetAppStore());

  it('is a simple spinner with the simple-spinner flag, else the rocket', () => {
    const { container } = renderWithProviders(<LoadingOverlay />);
    act(() => useAppStore.getState().startLoading({ simpleSpinner: true }));
    expect(container.querySelector('[data-overlay="spinner"]')).toBeInTheDocument();
    expect(container.querySelector('[data-overlay="rocket"]')).not.toBeInTheDocument();
    act(() => useAppStore.getState().startLoading());
    expect(container.querySelector('[data-overlay="rocket"]')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  });

  it('shows while loading, with the accessible name "Loading"', () => {
    renderWithProviders(<LoadingOverlay />);
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    act(() => useAppStore.getState().startLoading({ simpleSpinner: true }));
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    act(() => useAppStore.getState().stopLoading());
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });
});
