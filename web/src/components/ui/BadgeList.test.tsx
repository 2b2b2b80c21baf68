import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BadgeList, badgeAction, badgeColor, type BadgeItem, type BadgeListProps } from './BadgeList';

function renderList(props: BadgeListProps) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <BadgeList {...props} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('BadgeList (SPEC §2)', () => {
  it('renders a plain-text badge when it has none of to, href or emit', () => {
    renderList({ badges: [{ text: 'Active', color: 'badge-success' }], 'aria-label': 'Statuses' });
    const list = screen.getByRole('list', { name: 'Statuses' });
    const badge = within(list).getByText('Active').closest('[data-action]')!;
    expect(badge).toHaveAttribute('data-action', 'text');
    expect(within(list).queryByRole('link')).not.toBeInTheDocument();
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
    expect(badge).toHaveClass('badge-success');
  });

  it('to: an in-app link that navigates', async () => {
    const router = renderList({ badges: [{ text: 'Project 42', color: 'bg-primary', to: '/project/view?id=42' }] });
    const link = screen.getByRole('link', { name: 'Project 42' });
    expect(link).toHaveAttribute('href', '/project/view?id=42');
    expect(link).not.toHaveAttribute('target');
    await userEvent.click(link);
    expect(router.state.location.pathname + router.state.location.search).toBe('/project/view?id=42');
  });

  it('href: an external link opening in a new tab with rel="noopener"', () => {
    renderList({ badges: [{ text: 'In the ERP', href: 'https://erp.example.com/app/job.nl?id=42' }] });
    const link = screen.getByRole('link', { name: /^In the ERP/ });
    expect(link).toHaveAttribute('href', 'https://erp.example.com/app/job.nl?id=42');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(link).toHaveAccessibleName('In the ERP (opens in a new tab)');
  });

  it('emit: a button raising its payload on click', async () => {
    const onEmit = vi.fn();
    const badge: BadgeItem = { text: 'Overdue', color: 'danger', emit: { status: 'Overdue' } };
    renderList({ badges: [badge], onEmit });
    await userEvent.click(screen.getByRole('button', { name: 'Overdue' }));
    expect(onEmit).toHaveBeenCalledExactlyOnceWith({ status: 'Overdue' }, badge);
  });

  it('mini: a compact look', () => {
    renderList({ badges: [{ text: 'A' }, { text: 'B', to: '/x' }], mini: true });
    for (const el of [screen.getByText('A'), screen.getByText('B')]) {
      expect(el.closest('[data-action]')).toHaveAttribute('data-mini', 'true');
      expect(el.closest('[data-action]')).toHaveAttribute('data-size', 'xs');
    }
  });

  it('renders nothing for no badges', () => {
    renderList({ badges: [], 'aria-label': 'Empty' });
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('maps style classes to colors', () => {
    expect(badgeColor('badge-success')).toBe('teal');
    expect(badgeColor('bg-danger')).toBe('red');
    expect(badgeColor('text-primary')).toBe('indigo');
    expect(badgeColor('alert-warning')).toBe('yellow');
    expect(badgeColor('info')).toBe('cyan');
    expect(badgeColor('grape')).toBe('grape');
    expect(badgeColor('custom-thing badge-secondary')).toBe('gray');
    expect(badgeColor('unknown')).toBe('gray');
    expect(badgeColor(undefined)).toBe('gray');
  });

  it('uses at most one action, in the order to, href, emit', () => {
    expect(badgeAction({ text: 'x' })).toBe('text');
    expect(badgeAction({ text: 'x', to: '/a' })).toBe('link');
    expect(badgeAction({ text: 'x', href: 'https://a' })).toBe('external');
    expect(badgeAction({ text: 'x', emit: 0 })).toBe('emit');
    // Types forbid more than one; at run time the first wins.
    expect(badgeAction({ text: 'x', to: '/a', href: 'https://a' } as unknown as BadgeItem)).toBe('link');
  });
});
