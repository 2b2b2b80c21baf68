import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import { renderWithProviders } from '../../test/render';
import { signIn } from './testing';
import { VisibilityChoice } from './VisibilityChoice';

afterEach(() => useSessionStore.getState().clearSession());

describe('VisibilityChoice', () => {
  it('offers sharing with the role to a role with lists.edit', () => {
    signIn();
    renderWithProviders(<VisibilityChoice noun="list" value="private" onChange={vi.fn()} roleName="Administrator" />);
    expect(screen.getByRole('radio', { name: 'Everyone working as Administrator' })).toBeEnabled();
  });

  it('keeps a role without lists.edit to private lists, and says why', () => {
    signIn();
    const role = { ...useSessionStore.getState().currentRole!, name: 'Project Manager', permissions: ['project.view'] };
    useSessionStore.getState().setCurrentRole(role);
    renderWithProviders(<VisibilityChoice noun="list" value="private" onChange={vi.fn()} roleName={role.name} />);
    expect(screen.getByRole('radio', { name: 'Everyone working as Project Manager' })).toBeDisabled();
    expect(screen.getByText('Your role may not share a list with everyone in it.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Only me' })).toBeEnabled();
  });
});
