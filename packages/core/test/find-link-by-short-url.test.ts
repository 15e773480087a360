/** findLinkByShortUrl against nock: which link a short URL names, how far it scans, what it refuses. */
import { InputError, createClient } from '../src/index';
import { API_KEY, BASE_URL, fakeClock, link } from './helpers';
import { api, useStrictNock } from './nock-api';

function client() {
  const clock = fakeClock();
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, random: () => 0.5, maxRetries: 0 });
}

/** The same slug on the default domain (sho.rt) and on a custom domain. */
const onDefault = link({ id: '20', slug: 'spring-sale', shortUrl: 'https://sho.rt/spring-sale', domain: null });
const onCustom = link({ id: '21', slug: 'spring-sale', shortUrl: 'https://go.example.org/spring-sale', domain: 'go.example.org' });
const other = link({ id: '19', slug: 'other', shortUrl: 'https://sho.rt/other' });

function pages(first: unknown[], second: unknown[]) {
  api().get('/links').query({ limit: '100' }).reply(200, { data: first, nextCursor: 'p2' });
  api().get('/links').query({ limit: '100', cursor: 'p2' }).reply(200, { data: second, nextCursor: null });
}

useStrictNock();

describe('findLinkByShortUrl', () => {
  test('a custom-domain URL finds the link on that domain, not the default-domain twin', async () => {
    pages([onDefault, other], [onCustom]);
    expect(await client().findLinkByShortUrl('https://go.example.org/spring-sale')).toEqual(onCustom);
  });

  test('a default-domain URL finds the link whose domain is null and stops at it', async () => {
    // Only the first page is served: a second request would fail the pending-mocks check as an error.
    api().get('/links').query({ limit: '100' }).reply(200, { data: [onCustom, onDefault], nextCursor: 'p2' });
    expect(await client().findLinkByShortUrl('https://sho.rt/spring-sale')).toEqual(onDefault);
  });

  test.each([
    ['host case', 'https://GO.Example.ORG/spring-sale'],
    ['trailing slash', 'https://go.example.org/spring-sale/'],
    ['scheme', 'http://go.example.org/spring-sale'],
    ['scheme case and query', 'HTTPS://go.example.org/spring-sale?utm_source=x#top'],
    ['surrounding spaces', '  https://go.example.org/spring-sale  '],
  ])('normalises the %s', async (_what, shortUrl) => {
    api().get('/links').query({ limit: '100' }).reply(200, { data: [onDefault, onCustom], nextCursor: null });
    expect((await client().findLinkByShortUrl(shortUrl))?.id).toBe('21');
  });

  test('the slug is case-sensitive, as the document says', async () => {
    api().get('/links').query({ limit: '100' }).reply(200, { data: [onDefault, onCustom], nextCursor: null });
    expect(await client().findLinkByShortUrl('https://sho.rt/Spring-Sale')).toBeUndefined();
  });

  test('the right slug on another host names no link of the account', async () => {
    pages([onDefault, other], [onCustom]);
    expect(await client().findLinkByShortUrl('https://elsewhere.example.net/spring-sale')).toBeUndefined();
  });

  test('a custom-domain link is never taken for another host, even with an equal shortUrl', async () => {
    const inconsistent = link({ id: '30', slug: 'x', shortUrl: 'https://sho.rt/x', domain: 'go.example.org' });
    api().get('/links').query({ limit: '100' }).reply(200, { data: [inconsistent], nextCursor: null });
    expect(await client().findLinkByShortUrl('https://sho.rt/x')).toBeUndefined();
  });

  test('looks past the first page: "none" only after the last one', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => link({ id: String(200 - i), slug: `other-${i}`, shortUrl: `https://sho.rt/other-${i}` }));
    api().get('/links').query({ limit: '100' }).reply(200, { data: hundred, nextCursor: 'p2' });
    api().get('/links').query({ limit: '100', cursor: 'p2' }).reply(200, { data: [link({ id: '5', slug: 'old', shortUrl: 'https://sho.rt/old' })], nextCursor: null });
    expect(await client().findLinkByShortUrl('https://sho.rt/spring-sale')).toBeUndefined();
  });

  test.each([
    ['', /required/],
    ['sho.rt/spring-sale', /absolute http\(s\) URL/],
    ['ftp://sho.rt/spring-sale', /absolute http\(s\) URL/],
    ['https://sho.rt/', /must end with the slug/],
    ['https://sho.rt', /must end with the slug/],
  ])('refuses %j with an InputError on shortUrl, before any request', async (shortUrl, message) => {
    const error = await client().findLinkByShortUrl(shortUrl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ field: 'shortUrl', message: expect.stringMatching(message) });
    expect((error as Error).message).toContain('shortUrl');
  });

  test('refuses a non-string', async () => {
    await expect(client().findLinkByShortUrl(42 as unknown as string)).rejects.toMatchObject({ field: 'shortUrl' });
  });
});
