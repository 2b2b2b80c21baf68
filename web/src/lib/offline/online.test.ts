import { describe, expect, it } from 'vitest';
import { ageText } from './online';

describe('ageText', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  it('says how long ago, in the largest whole unit up to days', () => {
    expect(ageText(now - 20_000, now)).toBe('just now');
    expect(ageText(now - 60_000, now)).toBe('1 minute ago');
    expect(ageText(now - 12 * 60_000, now)).toBe('12 minutes ago');
    expect(ageText(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(ageText(now - 47 * 3_600_000, now)).toBe('47 hours ago');
    expect(ageText(now - 3 * 86_400_000, now)).toBe('3 days ago');
  });
  it('never says a copy is from the future (a clock put back)', () => {
    expect(ageText(now + 60_000, now)).toBe('just now');
  });
});
