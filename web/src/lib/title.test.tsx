import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { documentTitle, useDocumentTitle, usePageTitle } from './title';

function Page({ parts }: { parts: (string | undefined)[] | null }) {
  usePageTitle(parts);
  return null;
}

function Root({ routeTitle, parts, page = true }: { routeTitle?: string; parts: (string | undefined)[] | null; page?: boolean }) {
  useDocumentTitle(routeTitle);
  return page ? <Page parts={parts} /> : null;
}

describe('document title', () => {
  it('joins the parts with the product name, leaving out empty ones', () => {
    expect(documentTitle(['Wetland restoration', 'Project'])).toBe('Wetland restoration · Project · Portico');
    expect(documentTitle([undefined, ' ', 'Projects'])).toBe('Projects · Portico');
    expect(documentTitle([])).toBe('Portico');
  });

  it('a page’s own title wins over its route’s, while it is mounted', () => {
    const { rerender } = render(<Root routeTitle="Project" parts={['Wetland restoration', 'Project']} />);
    expect(document.title).toBe('Wetland restoration · Project · Portico');
    rerender(<Root routeTitle="Project" parts={['Acme', 'Client']} />);
    expect(document.title).toBe('Acme · Client · Portico');
    rerender(<Root routeTitle="Project" parts={['Acme', 'Client']} page={false} />);
    expect(document.title).toBe('Project · Portico');
  });

  it('a page that names nothing leaves the route’s title', () => {
    render(<Root routeTitle="Feedback" parts={null} />);
    expect(document.title).toBe('Feedback · Portico');
  });
});
