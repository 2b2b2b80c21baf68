import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import { renderWithProviders } from '../../test/render';
import { role as admin, signIn } from './testing';
import { VisibilityChoice } from './VisibilityChoice';

afterEach(() => useSessionStore.getState().clearSession());

describe('VisibilityChoice', () => {
  it('offers sharing with the role to a role with lists.edit', () => {
    signIn();
    renderWithProviders(<VisibilityChoice noun="list" value="private" onChange={vi.fn()} />);
    expect(screen.getByRole('radio', { name: 'Everyone working as Administrator' })).toBeEnabled();
  });

  it('keeps a role without lists.edit to private lists, and says why', () => {
    signIn();
    const role = { ...useSessionStore.getState().currentRole!, name: 'Project Manager', permissions: ['project.view'] };
    useSessionStore.getState().setCurrentRole(role);
    renderWithProviders(<VisibilityChoice noun="list" value="private" onChange={vi.fn()} />);
    expect(screen.getByRole('radio', { name: 'Everyone working as Project Manager' })).toBeDisabled();
    expect(screen.getByText('Your role may not share a list with everyone in it.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Only me' })).toBeEnabled();
  });

  it('offers the other roles the user holds that may share, and names the one chosen', async () => {
    signIn();
    const pm = { ...admin, _id: 'role-pm', id: 1002, name: 'Project Manager' };
    const viewer = { ...admin, _id: 'role-viewer', id: 1003, name: 'Viewer', permissions: [] };
    useSessionStore.getState().hydrate({ user: { ...useSessionStore.getState().user!, roles: [admin, pm, viewer] } });
    const onChange = vi.fn();
    renderWithProviders(<VisibilityChoice noun="list" value="private" onChange={onChange} />);
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['private', 'role:1001', 'role:1002']);
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Everyone working as Project Manager' }));
    expect(onChange).toHaveBeenLastCalledWith('role', 1002);
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Everyone working as Administrator' }));
    expect(onChange).toHaveBeenLastCalledWith('role', undefined);
  });
});
