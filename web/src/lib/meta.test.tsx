import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { meta, mergeRouteMeta, useRouteMeta, useRouteTab } from './meta';

function Probe() {
  const tab = useRouteTab();
  const { model, isView, title } = useRouteMeta();
  return <p data-testid="probe">{JSON.stringify({ tab: tab ?? null, model, isView, title })}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/project',
        handle: meta({ model: 'project' }),
        children: [
          {
            path: 'view',
            handle: meta({ isView: true, title: 'Project' }),
            Component: Probe,
            children: [
              { path: 'billing', handle: meta({ tab: 'billing' }), Component: Probe },
              { path: ':tab', Component: Probe },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return JSON.parse(screen.getAllByTestId('probe').at(-1)!.textContent!) as Record<string, unknown>;
}

describe('route meta', () => {
  it('merges parent and child flags, the child winning', () => {
    expect(mergeRouteMeta([{ handle: { model: 'a', showNavbar: true } }, { handle: { model: 'b' } }, { handle: undefined }])).toEqual({
      model: 'b',
      showNavbar: true,
    });
  });

  it('useRouteTab: none on the bare view, the named tab, or the catch-all parameter', () => {
    expect(renderAt('/project/view?id=1')).toEqual({ tab: null, model: 'project', isView: true, title: 'Project' });
  });

  it('useRouteTab: a named tab route', () => {
    expect(renderAt('/project/view/billing?id=1')).toMatchObject({ tab: 'billing', model: 'project', isView: true });
  });

  it('useRouteTab: the catch-all tab route', () => {
    expect(renderAt('/project/view/notes?id=1')).toMatchObject({ tab: 'notes', model: 'project' });
  });
});
