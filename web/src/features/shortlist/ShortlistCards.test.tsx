import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { renderWithProviders } from '../../test/render';
import type { ShelfItem } from './api';
import { CARD_SIZE, ShortlistCards } from './ShortlistCards';
import { fakeShelves, heron, ibis } from './testing';

beforeEach(() => signIn());

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

function renderCards() {
  const router = createMemoryRouter([{ path: '*', Component: ShortlistCards }], { initialEntries: ['/'] });
  return renderWithProviders(<RouterProvider router={router} />);
}

function card(name: string) {
  return screen.getByRole('region', { name });
}

describe('ShortlistCards', () => {
  it('lists favourites and recent records as links to their pages, newest first, with what they are', async () => {
    fakeShelves({ favourites: [heron], recent: [ibis, heron] });
    renderCards();
    await waitFor(() => expect(within(card('Favourites')).getAllByRole('link')).toHaveLength(1), { timeout: 5000 });
    const link = within(card('Favourites')).getByRole('link', { name: 'Heron Marsh' });
    expect(link).toHaveAttribute('href', '/project/view?id=7');
    expect(card('Favourites')).toHaveTextContent('Project · PRJ-7 · Active');
    await waitFor(() => expect(within(card('Recent records')).getAllByRole('link').map((a) => a.textContent)).toEqual(['Ibis Holdings', 'Heron Marsh']), { timeout: 5000 });
  });

  it('says how to fill an empty card', async () => {
    fakeShelves();
    renderCards();
    expect(await within(card('Favourites')).findByText(/No favourites yet/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(await within(card('Recent records')).findByText('The records you open will be listed here.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it(`shows ${CARD_SIZE} at first, then all`, async () => {
    const many: ShelfItem[] = Array.from({ length: CARD_SIZE + 4 }, (_, i) => ({ ...heron, id: i + 1, name: `Project ${i + 1}`, domain: `/project/view?id=${i + 1}` }));
    fakeShelves({ recent: many });
    const user = userEvent.setup();
    renderCards();
    await waitFor(() => expect(within(card('Recent records')).getAllByRole('link')).toHaveLength(CARD_SIZE), { timeout: 5000 });
    await user.click(within(card('Recent records')).getByRole('button', { name: `Show all ${CARD_SIZE + 4}` }));
    expect(within(card('Recent records')).getAllByRole('link')).toHaveLength(CARD_SIZE + 4);
  });
});
