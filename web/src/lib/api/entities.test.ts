import { describe, expect, it } from 'vitest';
import { decodeEntities, decodeEntitiesDeep } from './entities';

describe('HTML-entity decoding (SPEC §7)', () => {
  it('decodes named, decimal and hex entities', () => {
    expect(decodeEntities('AT&amp;T &lt;b&gt; &quot;q&quot; &apos;a&apos; O&#39;Brien caf&#xe9; &#X1F600;')).toBe(
      'AT&T <b> "q" \'a\' O\'Brien café 😀',
    );
    expect(decodeEntities('Smith &ndash; Jones&hellip; &copy;&nbsp;2030')).toBe('Smith – Jones… ©\u00a02030');
  });

  it('uses the browser for rarer named entities and leaves unknown or invalid ones', () => {
    expect(decodeEntities('&eacute;t&eacute;')).toBe('été');
    expect(decodeEntities('&notanentity; &#0; &#xD800; & alone')).toBe('&notanentity; &#0; &#xD800; & alone');
  });

  it('decodes strings and keys anywhere in a value, leaving other types alone', () => {
    expect(decodeEntitiesDeep({ 'a&amp;b': [{ x: '&lt;1&gt;' }, 2, null, false] })).toEqual({ 'a&b': [{ x: '<1>' }, 2, null, false] });
    expect(decodeEntitiesDeep(undefined)).toBeUndefined();
  });
});
