import { describe, expect, it } from 'vitest';
import { SEARCH_DEBOUNCE_MS, searchFires, searchHint, searchShowsResults, searchTerm } from './thresholds';

describe('search thresholds (SPEC §5)', () => {
  it('takes the text after the first colon, trimmed, as the term', () => {
    expect(searchTerm('  acme  ')).toBe('acme');
    expect(searchTerm('cus: acme ')).toBe('acme');
    expect(searchTerm('proj:wetland')).toBe('wetland');
    expect(searchTerm('a:b:c')).toBe('b:c');
    expect(searchTerm(':')).toBe('');
  });

  it('fires from 4 characters of term, the prefix not counted', () => {
    expect(searchFires('abc')).toBe(false);
    expect(searchFires('abcd')).toBe(true);
    expect(searchFires('   abc   ')).toBe(false);
    expect(searchFires('cus: abc')).toBe(false);
    expect(searchFires('cus: abcd')).toBe(true);
    expect(searchFires('abcdefgh:')).toBe(false);
  });

  it('shows results from 6 characters of trimmed query, when a search fires', () => {
    expect(searchShowsResults('abcde')).toBe(false);
    expect(searchShowsResults('abcdef')).toBe(true);
    expect(searchShowsResults('  abcde  ')).toBe(false);
    expect(searchShowsResults('cus:abcd')).toBe(true);
    expect(searchShowsResults('cus: abc')).toBe(false);
  });

  it('hints how much to type while the query is too short to show results', () => {
    expect(searchHint('')).toBeNull();
    expect(searchHint('   ')).toBeNull();
    expect(searchHint('c')).toBe('Type at least 6 characters to see results');
    expect(searchHint(' cedar ')).toBe('Type at least 6 characters to see results');
    expect(searchHint('cedars')).toBeNull();
    expect(searchHint('cus: abc')).toBe('Type at least 4 characters after the colon to see results');
    expect(searchHint('cus: abcd')).toBeNull();
  });

  it('debounces by one second', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(1000);
  });
});
