import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { useAppStore } from '../../lib/appState';
import { renderWithProviders } from '../../test/render';
import { RecordShortlist } from './RecordShortlist';
import { fakeShelves, heron } from './testing';

beforeEach(() => signIn());

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
  useAppStore.getState().hideAlert();
});

function star() {
  return screen.getByRole('button', { name: 'Favourite' });
}

describe('RecordShortlist', () => {
  it('records the visit once, when the page shows the record', async () => {
    const server = fakeShelves();
    const { rerender } = renderWithProviders(<RecordShortlist kind="project" id={7} />);
    await waitFor(() => expect(server.calls).toContain('POST /api/v1/me/recent?type=project&id=7'), { timeout: 5000 });
    rerender(<RecordShortlist kind="project" id={7} />);
    await waitFor(() => expect(server.calls.filter((c) => c.startsWith('GET /api/v1/me/favourites'))).toHaveLength(1), { timeout: 5000 });
    expect(server.calls.filter((c) => c.startsWith('POST'))).toHaveLength(1);
  });

  it('is a toggle button: not pressed for a record that is no favourite; pressing stars it', async () => {
    const server = fakeShelves();
    const user = userEvent.setup();
    renderWithProviders(<RecordShortlist kind="project" id={7} />);
    await waitFor(() => expect(star()).toBeEnabled(), { timeout: 5000 });
    expect(star()).toHaveAttribute('aria-pressed', 'false');
    await user.click(star());
    expect(star()).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(server.calls).toContain('PUT /api/v1/me/favourites?type=project&id=7'), { timeout: 5000 });
    await waitFor(() => expect(server.calls.filter((c) => c.startsWith('GET /api/v1/me/favourites'))).toHaveLength(2), { timeout: 5000 });
    expect(star()).toHaveAttribute('aria-pressed', 'true');
  });

  it('pressed for a favourite; pressing unstars it', async () => {
    const server = fakeShelves({ favourites: [heron] });
    const user = userEvent.setup();
    renderWithProviders(<RecordShortlist kind="project" id={7} />);
    await waitFor(() => expect(star()).toHaveAttribute('aria-pressed', 'true'), { timeout: 5000 });
    await user.click(star());
    expect(star()).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(server.calls).toContain('DELETE /api/v1/me/favourites?type=project&id=7'), { timeout: 5000 });
    await waitFor(() => expect(server.shelves.favourites).toHaveLength(0), { timeout: 5000 });
    expect(star()).toHaveAttribute('aria-pressed', 'false');
  });

  it('a refusal puts the button back and says why', async () => {
    const server = fakeShelves();
    const user = userEvent.setup();
    renderWithProviders(<RecordShortlist kind="project" id={7} />);
    await waitFor(() => expect(star()).toBeEnabled(), { timeout: 5000 });
    server.refuse(409, 'You have 200 favourites, the most kept: remove one to add another.');
    await user.click(star());
    await waitFor(() => expect(useAppStore.getState().alert?.message).toBe('You have 200 favourites, the most kept: remove one to add another.'), { timeout: 5000 });
    expect(useAppStore.getState().alert?.type).toBe('alert-danger');
    await waitFor(() => expect(star()).toHaveAttribute('aria-pressed', 'false'), { timeout: 5000 });
  });
});
