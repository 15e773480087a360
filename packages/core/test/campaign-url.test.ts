/** buildCampaignUrl: UTM parameters on any URL, query and fragment kept, utm_* replaced, encoded right. */
import fc from 'fast-check';
import { InputError } from '../src/portable';
import { buildCampaignUrl } from '../src/faces/operations';

describe('buildCampaignUrl', () => {
  test('adds the parameters in a fixed order', () => {
    expect(
      buildCampaignUrl('https://example.org/sale', { source: 'newsletter', medium: 'email', campaign: 'spring', term: 'shoes', content: 'hero' }),
    ).toBe('https://example.org/sale?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=shoes&utm_content=hero');
  });

  test.each([
    ['javascript:alert(document.cookie)', 'javascript:'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['file:///etc/passwd', 'file:'],
    ['ftp://example.org/file', 'ftp:'],
  ])('refuses %s by its scheme, with or without UTM values', (url, scheme) => {
    for (const utm of [{ source: 'nl' }, {}]) {
      let thrown: unknown;
      try {
        buildCampaignUrl(url, utm);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InputError);
      expect((thrown as InputError).field).toBe('url');
      expect((thrown as InputError).message).toContain(`a ${scheme} URL cannot carry campaign parameters`);
    }
  });

  test('keeps the existing query byte for byte and the fragment', () => {
    expect(buildCampaignUrl('https://example.org/p?a=1&b=x%20y&flag#section-2', { source: 'nl' })).toBe(
      'https://example.org/p?a=1&b=x%20y&flag&utm_source=nl#section-2',
    );
  });

  test('replaces existing utm_* (any case, duplicates too) and keeps the others', () => {
    expect(buildCampaignUrl('https://example.org/?utm_source=old&UTM_SOURCE=older&utm_medium=keep&x=1', { source: 'new' })).toBe(
      'https://example.org/?utm_medium=keep&x=1&utm_source=new',
    );
  });

  test('encodes spaces, ampersands, equals, hashes and non-ASCII', () => {
    const url = buildCampaignUrl('https://example.org/', { campaign: 'Spring & Summer = 50% #1', content: 'Grüße' });
    expect(url).toBe('https://example.org/?utm_campaign=Spring%20%26%20Summer%20%3D%2050%25%20%231&utm_content=Gr%C3%BC%C3%9Fe');
    expect(new URL(url).searchParams.get('utm_campaign')).toBe('Spring & Summer = 50% #1');
  });

  test('empty or missing values add nothing; values are trimmed', () => {
    expect(buildCampaignUrl('https://example.org/a?utm_source=x', { source: '  ', medium: undefined })).toBe('https://example.org/a?utm_source=x');
    expect(buildCampaignUrl('https://example.org/a', { source: ' nl ' })).toBe('https://example.org/a?utm_source=nl');
  });

  test('rejects what is not an absolute URL, naming the field', () => {
    expect(() => buildCampaignUrl('example.org/a', { source: 'x' })).toThrow(InputError);
    expect(() => buildCampaignUrl('', { source: 'x' })).toThrow(/url is required/);
    expect(() => buildCampaignUrl('https://example.org', { source: 5 as never })).toThrow(/utm\.source must be text/);
  });

  test('property: values round-trip, other parameters and the fragment survive', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((k) => !k.startsWith('utm_'));
    const value = fc.string({ maxLength: 20, unit: 'grapheme' });
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: false, withFragments: false }),
        fc.array(fc.tuple(key, fc.string({ maxLength: 10 })), { maxLength: 4 }),
        fc.option(fc.string({ maxLength: 10, unit: 'grapheme-ascii' }).filter((f) => !/[#\s]/.test(f)), { nil: undefined }),
        fc.record({ source: value, medium: value, campaign: value, term: value, content: value }, { requiredKeys: [] }),
        fc.array(fc.constantFrom('utm_source', 'utm_medium', 'utm_campaign'), { maxLength: 2 }),
        (base, others, fragment, utm, oldUtm) => {
          const start = new URL(base);
          for (const [k, v] of others) start.searchParams.append(k, v);
          for (const k of oldUtm) start.searchParams.append(k, 'old value');
          if (fragment !== undefined) start.hash = fragment;
          const result = new URL(buildCampaignUrl(start.href, utm));
          for (const name of ['source', 'medium', 'campaign', 'term', 'content'] as const) {
            const wanted = utm[name]?.trim();
            const got = result.searchParams.getAll(`utm_${name}`);
            if (wanted) expect(got).toEqual([wanted]);
            else expect(got).toEqual(start.searchParams.getAll(`utm_${name}`));
          }
          const rest = (u: URL) => [...u.searchParams].filter(([k]) => !k.startsWith('utm_'));
          expect(rest(result)).toEqual(rest(start));
          expect(result.hash).toBe(start.hash);
          expect(result.origin + result.pathname).toBe(start.origin + start.pathname);
        },
      ),
      { numRuns: 300 },
    );
  });
});
