import { describe, expect, it, vi } from 'vitest';
import { jumpProblem, MAX_JUMP, walkForward, type PageLink } from './pageJump';

/** A list of `pages` pages whose page n (1-based) starts at cursor "c<n>". */
function list(pages: number) {
  const read = vi.fn(async (cursor: string): Promise<PageLink> => {
    const n = Number(cursor.slice(1));
    return n < pages ? { nextCursor: `c${n + 1}`, hasMore: true } : { nextCursor: null, hasMore: false };
  });
  return { read, first: { nextCursor: 'c2', hasMore: pages > 1 } as PageLink };
}

describe('page jump', () => {
  it('reads the pages between, one request each, and gives every cursor on the way', async () => {
    const { read, first } = list(10);
    const steps: number[] = [];
    const walk = await walkForward(first, 4, read, (done) => steps.push(done));
    // From page 1 to page 5: the cursors of pages 2–5; pages 2–4 were read.
    expect(walk).toEqual({ cursors: ['c2', 'c3', 'c4', 'c5'], ended: false });
    expect(read.mock.calls.map(([c]) => c)).toEqual(['c2', 'c3', 'c4']);
    expect(steps).toEqual([1, 2, 3]);
  });

  it('the next page needs no request; the end of the list stops the walk there', async () => {
    const { read, first } = list(3);
    expect(await walkForward(first, 1, read)).toEqual({ cursors: ['c2'], ended: false });
    expect(read).not.toHaveBeenCalled();
    expect(await walkForward(first, 5, read)).toEqual({ cursors: ['c2', 'c3'], ended: true });
    expect(await walkForward({ nextCursor: null, hasMore: false }, 2, read)).toEqual({ cursors: [], ended: true });
  });

  it('says why a page cannot be gone to', () => {
    expect(jumpProblem(0, 1, 10)).toBe('Enter a page number, 1 or more.');
    expect(jumpProblem(2.5, 1, 10)).toBe('Enter a page number, 1 or more.');
    expect(jumpProblem(Number.NaN, 1, null)).toBe('Enter a page number, 1 or more.');
    expect(jumpProblem(11, 1, 10)).toBe('There are 10 pages.');
    expect(jumpProblem(11, 1, 10, true)).toBe('There are about 10 pages.');
    expect(jumpProblem(2, 1, 1)).toBe('There is 1 page.');
    expect(jumpProblem(1 + MAX_JUMP + 1, 1, null)).toMatch(/more than 50 pages on\. Narrow the list/);
    expect(jumpProblem(1 + MAX_JUMP, 1, null)).toBeNull();
    // Back is always fine.
    expect(jumpProblem(3, 400, 1000)).toBeNull();
    // Page numbers read as every count does (format.ts, the user's locale).
    expect(jumpProblem(20_001, 1, 12_345)).toBe('There are 12,345 pages.');
    expect(jumpProblem(2_000, 1, null)).toMatch(/^Page 2,000 is more than 50 pages on/);
  });
});
