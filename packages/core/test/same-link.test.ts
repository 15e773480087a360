/** The one meaning of "the same link" (docs/api-contract.md), and the stored form of the index's entries. */
import { isSameLink, sameTarget, unusableReason } from '../src/link-index/same-link';
import { entryFromLine, entryLine, entryOf } from '../src/link-index/entry';
import { link } from './helpers';

describe('sameTarget', () => {
  test.each([
    ['https://example.org/a?x=1&y=2', 'https://example.org/a?y=2&x=1'],
    ['HTTPS://EXAMPLE.org:443/a', 'https://example.org/a'],
    ['http://example.org:80', 'http://example.org/'],
    ['https://example.org/%70age?q=a%20b', 'https://example.org/page?q=a b'],
    ['https://example.org/a?utm_source=news&utm_medium=email', 'https://example.org/a?utm_medium=email&utm_source=news'],
    ['https://example.org/a?', 'https://example.org/a'],
    // RFC 3986 §6.2.2: escape case normalised, escapes of unreserved characters read.
    ['https://example.org/a%2fb', 'https://example.org/a%2Fb'],
    ['https://example.org/%7Euser/%41', 'https://example.org/~user/A'],
    ['https://example.org/a?q=%3d', 'https://example.org/a?q=%3D'],
    ['https://example.org/a#%41', 'https://example.org/a#A'],
  ])('%s is the same target as %s', (a, b) => expect(sameTarget(a, b)).toBe(true));

  test.each([
    ['https://example.org/a?x=1&x=2', 'https://example.org/a?x=2&x=1'],
    ['https://example.org/Page', 'https://example.org/page'],
    ['https://example.org/a/', 'https://example.org/a'],
    ['https://example.org/a#top', 'https://example.org/a'],
    ['http://example.org/a', 'https://example.org/a'],
    ['https://example.org:8443/a', 'https://example.org/a'],
    ['not a url', 'https://example.org/a'],
    // Escapes of reserved characters keep their meaning: a "/" inside a segment, a "&" inside a value.
    ['https://example.org/a%2Fb', 'https://example.org/a/b'],
    ['https://example.org/a?q=a%26b', 'https://example.org/a?q=a&b'],
    ['https://example.org/a?q=a%3Db', 'https://example.org/a?q=a=b'],
    ['https://example.org/a%3Fb', 'https://example.org/a?b'],
  ])('%s is not the same target as %s', (a, b) => expect(sameTarget(a, b)).toBe(false));
});

test('isSameLink: target, domain (null = the default one) and slug when given', () => {
  const onCustom = link({ targetUrl: 'https://example.org/a?b=1&a=2', domain: 'Go.Example.org', slug: 's' });
  expect(isSameLink(onCustom, { targetUrl: 'https://example.org/a?a=2&b=1', domain: 'go.example.org' })).toBe(true);
  expect(isSameLink(onCustom, { targetUrl: 'https://example.org/a?a=2&b=1', domain: null })).toBe(false);
  expect(isSameLink(onCustom, { targetUrl: 'https://example.org/a?a=2&b=1', domain: 'go.example.org', slug: 't' })).toBe(false);
});

test('unusableReason: paused, blocked, expired (at or before now), else reusable', () => {
  const now = Date.parse('2026-05-01T00:00:00Z');
  expect(unusableReason(link({ active: false }), now)).toBe('paused');
  expect(unusableReason(link({ blocked: true }), now)).toBe('blocked');
  expect(unusableReason(link({ expiresAt: '2026-05-01T00:00:00.000Z' }), now)).toBe('expired');
  expect(unusableReason(link({ expiresAt: '2026-05-02T00:00:00.000Z' }), now)).toBeUndefined();
  expect(unusableReason({ active: true }, now)).toBeUndefined();
});

test('an entry survives its stored line (tabs, newlines and % in slug and domain escaped)', () => {
  const entry = entryOf(link({ id: '7', slug: 'a\tb%c\nd', domain: 'go.example.org', active: false, blocked: true, expiresAt: '2027-01-01T00:00:00.000Z' }));
  const { link: _record, ...kept } = entry;
  expect(entryFromLine(entryLine(entry))).toEqual(kept);
  expect(entryFromLine('broken')).toBeUndefined();
});
