import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { AlertArea } from './AlertArea';
import { LoadingOverlay } from './LoadingOverlay';
import { resetAppStore, useAppStore } from './appState';

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

describe('LoadingOverlay', () => {
  afterEach(() => resetAppStore());

  it('shows while loading, with the accessible name "Loading"', () => {
    renderWithProviders(<LoadingOverlay />);
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    act(() => useAppStore.getState().startLoading({ simpleSpinner: true }));
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    act(() => useAppStore.getState().stopLoading());
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });
});
