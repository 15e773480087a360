/** sandbox.seedLinks: large accounts straight into the store, listed by GET /links like any other link. */
import { startSandbox, type Sandbox } from '../src/index';
import { api } from './http-helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 1_000_000, windowSeconds: 60 }, now: () => Date.parse('2026-05-01T12:00:00.000Z') });
});
afterAll(async () => {
  await sandbox.close();
});

test('10 000 links, oldest first, a millisecond apart up to now, without a single request', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'Big', email: 'big@example.com', plan: 'business' });
  const before = sandbox.requests.length;
  const seeded = sandbox.seedLinks(accountId, 10_000, { label: 'bulk' });
  expect(sandbox.requests.length).toBe(before);
  expect(seeded).toHaveLength(10_000);
  expect(seeded[9_999]!.createdAt).toBe('2026-05-01T12:00:00.000Z');
  expect(seeded[0]!.createdAt).toBe('2026-05-01T11:59:50.001Z');
  expect(Number(seeded[1]!.id)).toBeGreaterThan(Number(seeded[0]!.id));

  // Paged through the API: every link once, newest first, in pages of 100.
  const listed: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '?limit=100' : `?limit=100&cursor=${encodeURIComponent(cursor)}`;
    const page = (await api(sandbox.baseUrl, apiKey, 'GET', `/links${query}`)).json as { data: Array<{ id: string; slug: string }>; nextCursor: string | null };
    listed.push(...page.data.map((link) => link.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  expect(listed).toEqual(seeded.map((link) => link.id).reverse());

  // A link created through the API afterwards is newer than all of them.
  const created = (await api(sandbox.baseUrl, apiKey, 'POST', '/links', { targetUrl: 'https://example.org/after' })).json as { id: string };
  const top = (await api(sandbox.baseUrl, apiKey, 'GET', '/links?limit=1')).json as { data: Array<{ id: string }> };
  expect(top.data[0]!.id).toBe(created.id);
});

test('spacing 0 puts every link in one millisecond; ids still order them', () => {
  const { accountId } = sandbox.createAccount({ name: 'Burst', email: 'burst@example.com', plan: 'business' });
  const seeded = sandbox.seedLinks(accountId, 5, { spacingMs: 0, endAt: Date.parse('2026-04-01T00:00:00.000Z') });
  expect(new Set(seeded.map((link) => link.createdAt))).toEqual(new Set(['2026-04-01T00:00:00.000Z']));
  expect(sandbox.links(accountId).map((link) => link.id)).toEqual(seeded.map((link) => link.id).reverse());
});

test('an unknown account is refused', () => {
  expect(() => sandbox.seedLinks('999999', 1)).toThrow(/No account/);
});
