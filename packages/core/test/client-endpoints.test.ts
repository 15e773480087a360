/** Every endpoint method against nock, through the standalone axios transport. */
import nock from 'nock';
import { createClient } from '../src/index';
import { API, API_KEY, BASE_URL, RATE_HEADERS, created, fakeClock, link, problem } from './helpers';
import { ACCOUNT, PROBLEM_JSON, api, offContract, useStrictNock } from './nock-api';

/** Two JSON objects with the same fields and values, in any order. */
function sameJson(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
  return sorted(a) === sorted(b);
}

function client() {
  const clock = fakeClock();
  return createClient({ baseUrl: `${BASE_URL}/`, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, random: () => 0.5 });
}

const stats = {
  linkId: '1042',
  totalClicks: 3,
  clicksByDay: [{ date: '2026-03-01', clicks: 3 }],
  topCountries: [{ label: 'DE', clicks: 3 }],
  topDevices: [{ label: 'mobile', clicks: 3 }],
  topBrowsers: [{ label: 'Firefox', clicks: 3 }],
  topReferrers: [{ label: 'direct', clicks: 3 }],
};

useStrictNock();

describe('endpoint methods', () => {
  test('createLink POSTs JSON with Bearer key and returns the nine fields', async () => {
    const input = { targetUrl: 'https://example.org/spring-sale', slug: 'spring-sale', title: 'Spring sale' };
    nock(API, {
      reqheaders: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
    })
      .post('/links', input)
      .reply(201, created(), RATE_HEADERS);
    const result = await client().createLink(input);
    expect(result).toEqual(created());
    expect(Object.keys(result)).toHaveLength(9);
  });

  test('createLink omits undefined fields and sends expiresAt in UTC (and a marker slug of its own, 10 letters and digits)', async () => {
    api()
      .post('/links', (body: Record<string, unknown>) => {
        const { slug, ...rest } = body;
        return typeof slug === 'string' && /^[A-Za-z0-9]{10}$/.test(slug) && sameJson(rest, { targetUrl: 'https://example.org/', expiresAt: '2026-12-31T22:59:59.000Z' });
      })
      .reply(201, created({ targetUrl: 'https://example.org/' }));
    await client().createLink({ targetUrl: 'https://example.org/', expiresAt: '2026-12-31T23:59:59+01:00', title: undefined as unknown as string });
  });

  test('getLink reads the full link and encodes the id', async () => {
    api().get('/links/1042').reply(200, link());
    expect(await client().getLink('1042')).toEqual(link());
  });

  test('getLink turns a numeric id into text', async () => {
    offContract(api(), 'a numeric id: the client turns it into text').get('/links/7').reply(200, { ...link(), id: 7 });
    expect((await client().getLink('7')).id).toBe('7');
  });

  test('listLinks sends limit and cursor and reads the page; its nextCursor leads to the service cursor', async () => {
    api()
      .get('/links')
      .query({ limit: '2', cursor: 'abc' })
      .reply(200, { data: [link({ id: '2' }), link({ id: '1' })], nextCursor: 'def' });
    api().get('/links').query({ limit: '2', cursor: 'def' }).reply(200, { data: [], nextCursor: null });
    const c = client();
    // A cursor the service issued (or an earlier version saved) is sent as it is.
    const page = await c.listLinks({ limit: 2, cursor: 'abc' });
    expect(page.links.map((l) => l.id)).toEqual(['2', '1']);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(await c.listLinks({ limit: 2, cursor: page.nextCursor! })).toEqual({ links: [], nextCursor: null });
  });

  test('listLinks without options sends no query', async () => {
    api().get('/links').reply(200, { data: [], nextCursor: null });
    expect(await client().listLinks()).toEqual({ links: [], nextCursor: null });
  });

  test('iterateLinks walks every page', async () => {
    api().get('/links').query({ limit: '2' }).reply(200, { data: [link({ id: '4' }), link({ id: '3' })], nextCursor: 'p2' });
    api().get('/links').query({ limit: '2', cursor: 'p2' }).reply(200, { data: [link({ id: '2' }), link({ id: '1' })], nextCursor: 'p3' });
    api().get('/links').query({ limit: '2', cursor: 'p3' }).reply(200, { data: [], nextCursor: null });
    const ids: string[] = [];
    for await (const l of client().iterateLinks({ pageSize: 2 })) ids.push(l.id);
    expect(ids).toEqual(['4', '3', '2', '1']);
  });

  test('updateLink PATCHes only the given fields', async () => {
    api().patch('/links/1042', { title: 'New', expiresAt: null }).reply(200, link({ title: 'New' }));
    expect((await client().updateLink('1042', { title: 'New', expiresAt: null })).title).toBe('New');
  });

  test('deleteLink accepts 204 without body', async () => {
    api().delete('/links/1042').reply(204);
    await expect(client().deleteLink('1042')).resolves.toBeUndefined();
  });

  test('getLinkStats reads the statistics', async () => {
    api().get('/links/1042/stats').reply(200, stats);
    expect(await client().getLinkStats('1042')).toEqual(stats);
  });

  test('listDomains reads the data array', async () => {
    const domain = { id: '1', hostname: 'go.example.org', verified: true, createdAt: '2026-01-01T00:00:00.000Z' };
    api().get('/domains').reply(200, { data: [domain] });
    expect(await client().listDomains()).toEqual([domain]);
  });

  test('listDomains tolerates a bare array with numeric ids', async () => {
    offContract(api(), 'a bare array with numeric ids: the client tolerates it').get('/domains').reply(200, [{ id: 5, hostname: 'go.example.org' }]);
    expect(await client().listDomains()).toEqual([{ id: '5', hostname: 'go.example.org' }]);
  });

  test('getAccount reads /me', async () => {
    const account = {
      id: '1',
      name: 'Demo',
      email: 'demo@example.org',
      plan: { name: 'business', apiAccess: true, linkQuota: null },
      usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 3, clicks: 9 },
    };
    api().get('/me').reply(200, account);
    expect(await client().getAccount()).toEqual(account);
  });

  test('a base URL that already ends in /api/v1 is not doubled', async () => {
    api().get('/me').reply(200, ACCOUNT);
    const clock = fakeClock();
    const c = createClient({ baseUrl: `${API}/`, apiKey: API_KEY, now: clock.now, sleep: clock.sleep });
    await expect(c.getAccount()).resolves.toEqual(ACCOUNT);
  });
});

describe('helpers', () => {
  test('findLinks scans pages and stops at the unique slug match', async () => {
    api().get('/links').query({ limit: '100' }).reply(200, { data: [link({ id: '3', slug: 'a' })], nextCursor: 'p2' });
    api().get('/links').query({ limit: '100', cursor: 'p2' }).reply(200, { data: [link({ id: '2', slug: 'b' })], nextCursor: 'p3' });
    // p3 is never asked for: the slug is unique on the default domain.
    const found = await client().findLinks({ slug: 'b', domain: null });
    expect(found.map((l) => l.id)).toEqual(['2']);
  });

  test('findLinks by target URL respects domain and limit, and answers with the earliest same link (reading on for earlier twins)', async () => {
    const target = 'https://example.org/x';
    const at = (minutes: number) => new Date(Date.parse('2026-03-01T09:00:00.000Z') - minutes * 60_000).toISOString();
    api()
      .get('/links')
      .query({ limit: '100' })
      .reply(200, {
        data: [
          link({ id: '4', targetUrl: target, domain: 'go.example.org', createdAt: at(0) }),
          link({ id: '3', targetUrl: 'https://example.org/y', createdAt: at(1) }),
          link({ id: '2', targetUrl: target, createdAt: at(2) }),
        ],
        nextCursor: 'more',
      });
    // A twin made a minute earlier on the next page is the link; the walk stops once it is past the horizon.
    api()
      .get('/links')
      .query({ limit: '100', cursor: 'more' })
      .reply(200, { data: [link({ id: '1', targetUrl: target, createdAt: at(3) }), link({ id: '0', targetUrl: 'https://example.org/z', createdAt: at(30) })], nextCursor: 'end' });
    const found = await client().findLinks({ targetUrl: target, domain: null, limit: 1 });
    expect(found.map((l) => l.id)).toEqual(['1']);
  });

  test('findLinks answers "none" only after the last page (no cap on how far back it looks)', async () => {
    const many = (from: number, count: number) => Array.from({ length: count }, (_, i) => link({ id: String(from - i) }));
    api().get('/links').query({ limit: '100' }).reply(200, { data: many(500, 60), nextCursor: 'p2' });
    api().get('/links').query({ limit: '100', cursor: 'p2' }).reply(200, { data: many(440, 40), nextCursor: 'p3' });
    api().get('/links').query({ limit: '100', cursor: 'p3' }).reply(200, { data: many(400, 100), nextCursor: null });
    expect(await client().findLinks({ slug: 'nope' })).toEqual([]);
  });

  test('findOrCreateLink returns the existing link instead of a duplicate', async () => {
    const existing = link({ id: '9', targetUrl: 'https://example.org/a' });
    api().get('/links').query({ limit: '100' }).reply(200, { data: [existing], nextCursor: null });
    expect(await client().findOrCreateLink({ targetUrl: 'https://example.org/a' })).toEqual({ link: existing, created: false });
  });

  test('findOrCreateLink creates when nothing matches (other domain, other slug)', async () => {
    api()
      .get('/links')
      .query({ limit: '100' })
      .reply(200, { data: [link({ id: '9', targetUrl: 'https://example.org/a', slug: 'other' })], nextCursor: null });
    api().post('/links', { targetUrl: 'https://example.org/a', slug: 'mine' }).reply(201, created({ id: '10', slug: 'mine' }));
    const result = await client().findOrCreateLink({ targetUrl: 'https://example.org/a', slug: 'mine' });
    expect(result).toEqual({ link: created({ id: '10', slug: 'mine' }), created: true });
  });

  test('findOrCreateLink resolves a 409 on the slug to the same-target link', async () => {
    const holder = link({ id: '11', slug: 'taken', targetUrl: 'https://example.org/a' });
    api().get('/links').query({ limit: '100' }).reply(200, { data: [], nextCursor: null });
    api().post('/links').reply(409, problem(409, 'Slug already taken', 'The slug taken is already in use.'), PROBLEM_JSON);
    api().get('/links').query({ limit: '100' }).reply(200, { data: [holder], nextCursor: null });
    expect(await client().findOrCreateLink({ targetUrl: 'https://example.org/a', slug: 'taken' })).toEqual({ link: holder, created: false });
  });

  test('findOrCreateLink keeps the 409 when the slug points elsewhere', async () => {
    api().get('/links').query({ limit: '100' }).reply(200, { data: [], nextCursor: null });
    api().post('/links').reply(409, problem(409, 'Slug already taken', 'The slug taken is already in use.'), PROBLEM_JSON);
    api()
      .get('/links')
      .query({ limit: '100' })
      .reply(200, { data: [link({ slug: 'taken', targetUrl: 'https://other.example/' })], nextCursor: null });
    await expect(client().findOrCreateLink({ targetUrl: 'https://example.org/a', slug: 'taken' })).rejects.toMatchObject({
      name: 'ConflictError',
      status: 409,
      message: 'Slug already taken: The slug taken is already in use.',
    });
  });

  test('pollNewLinks through the client: the first run asks /me once and sets the mark with one list request', async () => {
    api().get('/me').reply(200, ACCOUNT);
    api()
      .get('/links')
      .query({ limit: '100' })
      .reply(200, { data: [link({ id: '5' }), link({ id: '4', createdAt: '2026-03-01T09:29:00.000Z' })], nextCursor: 'p2' });
    const first = await client().pollNewLinks(undefined);
    expect(first.links).toEqual([]);
    expect(first.state).toEqual({
      version: 2,
      owner: { baseUrl: BASE_URL, credential: expect.stringMatching(/^fnv:[0-9a-f]{16}$/), account: ACCOUNT.id },
      order: 'newest-first',
      mark: { createdAt: link().createdAt, ids: ['5'] },
    });
    expect(JSON.stringify(first.state)).not.toContain(API_KEY);
    api()
      .get('/links')
      .query({ limit: '100' })
      .reply(200, {
        data: [link({ id: '6', createdAt: '2026-03-01T09:31:00.000Z' }), link({ id: '5' }), link({ id: '4', createdAt: '2026-03-01T09:29:00.000Z' })],
        nextCursor: 'p2',
      });
    const second = await client().pollNewLinks(first.state);
    expect(second.links.map((l) => l.id)).toEqual(['6']);
    expect(second.complete).toBe(true);
  });
});
