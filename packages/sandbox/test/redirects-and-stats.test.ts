import { startSandbox, type Sandbox } from '../src/index';
import { api, visit } from './http-helpers';

const CHROME_DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_IPAD = 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/120.0 Mobile/15E148 Safari/605.1.15';

let clock = Date.parse('2026-03-01T10:00:00.000Z');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock });
});
afterAll(async () => {
  await sandbox.close();
});

async function create(body: Record<string, unknown>) {
  const answer = await api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', body);
  expect(answer.status).toBe(201);
  return answer.json as { id: string; slug: string };
}

test('a click redirects with 302 and is recorded from headers only, no cookie', async () => {
  const link = await create({ targetUrl: 'https://example.org/landing?a=1', slug: 'click-me' });
  const first = await visit(sandbox.baseUrl, '/click-me', {
    'user-agent': CHROME_DESKTOP,
    'cf-ipcountry': 'nl',
    'accept-language': 'de-DE,de;q=0.9',
    referer: 'https://www.google.com/search?q=x',
  });
  expect(first).toMatchObject({ status: 302, location: 'https://example.org/landing?a=1' });
  expect(first.setCookie).toBeUndefined();

  clock += 86_400_000; // next day
  await visit(sandbox.baseUrl, '/click-me', { 'user-agent': SAFARI_IPHONE, 'accept-language': 'fr-CA,fr;q=0.8' });
  await visit(sandbox.baseUrl, '/click-me', { 'user-agent': FIREFOX_IPAD, 'accept-language': 'en' });
  await visit(sandbox.baseUrl, '/click-me', {});
  await visit(sandbox.baseUrl, '/click-me', { 'user-agent': CHROME_DESKTOP }, 'HEAD'); // not a visit

  const stats = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${link.id}/stats`)).json;
  expect(stats.totalClicks).toBe(4);
  expect(stats.clicksByDay).toEqual([
    { date: '2026-03-01', clicks: 1 },
    { date: '2026-03-02', clicks: 3 },
  ]);
  expect(stats.topCountries).toEqual([
    { label: 'unknown', clicks: 2 },
    { label: 'CA', clicks: 1 },
    { label: 'NL', clicks: 1 },
  ]);
  expect(stats.topDevices).toEqual([
    { label: 'desktop', clicks: 1 },
    { label: 'mobile', clicks: 1 },
    { label: 'tablet', clicks: 1 },
    { label: 'unknown', clicks: 1 },
  ]);
  expect(stats.topBrowsers.map((b: { label: string }) => b.label)).toEqual(['Chrome', 'Firefox', 'Safari', 'unknown']);
  expect(stats.topReferrers).toEqual([
    { label: 'direct', clicks: 3 },
    { label: 'www.google.com', clicks: 1 },
  ]);
  const full = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${link.id}`)).json;
  expect(full.clicks).toBe(4);
});

test('top lists hold at most 10 entries, by clicks descending', async () => {
  const link = await create({ targetUrl: 'https://example.org/world' });
  const countries = ['AT', 'BE', 'CH', 'DE', 'ES', 'FI', 'GB', 'HU', 'IT', 'JP', 'KR', 'LU'];
  for (const [index, country] of countries.entries()) {
    // DE gets 3 clicks, the rest 1 each.
    const times = country === 'DE' ? 3 : 1;
    for (let i = 0; i < times; i++) await visit(sandbox.baseUrl, `/${link.slug}`, { 'cf-ipcountry': country, referer: `https://site${index}.example/` });
  }
  const stats = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${link.id}/stats`)).json;
  expect(stats.totalClicks).toBe(14);
  expect(stats.topCountries).toHaveLength(10);
  expect(stats.topCountries[0]).toEqual({ label: 'DE', clicks: 3 });
  expect(stats.topCountries.slice(1).map((c: { label: string }) => c.label)).toEqual(['AT', 'BE', 'CH', 'ES', 'FI', 'GB', 'HU', 'IT', 'JP']);
  expect(stats.topReferrers).toHaveLength(10);
});

test('custom domains redirect by Host header; the same slug on the default host is another link', async () => {
  await create({ targetUrl: 'https://example.org/custom', slug: 'same', domain: 'go.example.org' });
  await create({ targetUrl: 'https://example.org/default', slug: 'same' });
  expect((await visit(sandbox.baseUrl, '/same', { host: 'go.example.org' })).location).toBe('https://example.org/custom');
  expect((await visit(sandbox.baseUrl, '/same', { host: 'GO.example.org:443' })).location).toBe('https://example.org/custom');
  expect((await visit(sandbox.baseUrl, '/same')).location).toBe('https://example.org/default');
  expect((await visit(sandbox.baseUrl, '/nothing', { host: 'go.example.org' })).status).toBe(404);
});

test('inactive, blocked, expired, unknown → 404/410 pages without a click', async () => {
  const blocked = await create({ targetUrl: 'https://example.org/abuse', slug: 'abusive' });
  sandbox.setBlocked(blocked.id, true);
  expect((await visit(sandbox.baseUrl, '/abusive')).status).toBe(410);
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${blocked.id}`)).json.blocked).toBe(true);

  const inactive = await create({ targetUrl: 'https://example.org/off', slug: 'switched-off' });
  await api(sandbox.baseUrl, sandbox.apiKey, 'PATCH', `/links/${inactive.id}`, { active: false });
  const off = await visit(sandbox.baseUrl, '/switched-off');
  expect(off.status).toBe(404);
  expect(off.contentType).toMatch(/^text\/html/);

  const expiring = await create({ targetUrl: 'https://example.org/soon', slug: 'soon-gone', expiresAt: new Date(clock + 60_000).toISOString() });
  expect((await visit(sandbox.baseUrl, '/soon-gone')).status).toBe(302);
  clock += 60_000;
  const gone = await visit(sandbox.baseUrl, '/soon-gone');
  expect(gone.status).toBe(410);
  expect(gone.body).toContain('expired');

  expect((await visit(sandbox.baseUrl, '/never-existed')).status).toBe(404);
  expect(sandbox.links(sandbox.demoAccountId).find((l) => l.id === inactive.id)?.clicks).toBe(0);
  expect(sandbox.links(sandbox.demoAccountId).find((l) => l.id === expiring.id)?.clicks).toBe(1);
});

test('password links ask for the password (401 page) and accept ?password=', async () => {
  const link = await create({ targetUrl: 'https://example.org/secret', slug: 'locked', password: 'open sesame' });
  const ask = await visit(sandbox.baseUrl, '/locked');
  expect(ask.status).toBe(401);
  expect(ask.body).toContain('name="password"');
  expect((await visit(sandbox.baseUrl, '/locked?password=wrong')).status).toBe(401);
  const pass = await visit(sandbox.baseUrl, `/locked?password=${encodeURIComponent('open sesame')}`);
  expect(pass).toMatchObject({ status: 302, location: 'https://example.org/secret' });
  expect(sandbox.links(sandbox.demoAccountId).find((l) => l.id === link.id)?.clicks).toBe(1);
});

test('a deleted link stops redirecting', async () => {
  const link = await create({ targetUrl: 'https://example.org/bye', slug: 'bye' });
  expect((await visit(sandbox.baseUrl, '/bye')).status).toBe(302);
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'DELETE', `/links/${link.id}`)).status).toBe(204);
  expect((await visit(sandbox.baseUrl, '/bye')).status).toBe(404);
});
