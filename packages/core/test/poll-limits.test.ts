/**
 * client.pollNewLinks within its poll's limits: it starts no request after its time limit or while the
 * rate limit's window is down to its last sixth, and a wait that does not fit after some pages ends the
 * poll with its place kept instead of an error. The state names its owner, never the key.
 */
import { createClient } from '../src/portable';
import type { NewLinksState } from '../src/faces/host';
import { decodeContinuation } from '../src/reading/continuation';
import { API_KEY, BASE_URL, fakeClock, link } from './helpers';
import { ok, scriptedTransport, status, type Step } from './scripted-transport';

const ACCOUNT = { id: '7', name: 'A', email: 'a@example.org', plan: { name: 'business', apiAccess: true, linkQuota: null }, usage: {} };
const T0 = Date.parse('2026-03-01T09:30:00.000Z');

/** A newest-first page of links `from` down to `to` (ids), one second apart, with a cursor to the next. */
function page(from: number, to: number, more = true, headers: Record<string, string> = {}): Step {
  const links = [];
  for (let id = from; id >= to; id--) links.push(link({ id: String(id), slug: `s${id}`, createdAt: new Date(T0 + id * 1000).toISOString() }));
  return ok({ data: links, nextCursor: more ? `after-${to}` : null }, headers);
}

/** A stored state whose mark is link `id` (as the first poll of this account left it). */
function markedAt(id: number, credential: string): NewLinksState {
  return {
    version: 2,
    owner: { baseUrl: BASE_URL, credential, account: '7' },
    order: 'newest-first',
    mark: { createdAt: new Date(T0 + id * 1000).toISOString(), ids: [String(id)] },
  };
}

/** The service cursor the walk would continue with (the state keeps the pager's continuation token). */
function placeOf(state: NewLinksState): unknown {
  const token = decodeContinuation(state.catchUp?.walkCursor ?? '');
  return 'next' in token ? token.next : token;
}

async function credentialOf(): Promise<string> {
  const transport = scriptedTransport([ok(ACCOUNT), page(1, 1, false)]);
  const clock = fakeClock();
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now });
  const { state } = await client.pollNewLinks(undefined);
  expect(JSON.stringify(state)).not.toContain(API_KEY);
  return state.owner!.credential;
}

test('no request starts after the time limit: the walk keeps its place for the next poll', async () => {
  const credential = await credentialOf();
  const clock = fakeClock(T0);
  const steps: Step[] = [page(400, 301), page(300, 201), page(200, 101), page(100, 2)];
  const transport = scriptedTransport(steps);
  // Every answer takes 10 s of the fake clock.
  const slow = (async (request: Parameters<typeof transport>[0]) => {
    clock.advance(10_000);
    return transport(request);
  }) as typeof transport;
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport: slow, sleep: clock.sleep, now: clock.now });
  const result = await client.pollNewLinks(markedAt(1, credential), { timeLimitMs: 25_000 });
  expect(transport.requests).toHaveLength(3);
  expect(result.links).toEqual([]);
  expect(placeOf(result.state)).toEqual({ kind: 'cursor', value: 'after-101' });
  expect(result.complete).toBe(false);
});

test('the poll leaves the last sixth of the rate limit window to other work', async () => {
  const credential = await credentialOf();
  const clock = fakeClock(T0);
  const limit = (remaining: number) => ({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': String(remaining), 'RateLimit-Reset': '60' });
  const transport = scriptedTransport([page(400, 301, true, limit(30)), page(300, 201, true, limit(20)), page(200, 101, true, limit(19))]);
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now });
  const result = await client.pollNewLinks(markedAt(1, credential));
  // After the answer that says 20 are left (20 ≤ 120 / 6), no further request.
  expect(transport.requests).toHaveLength(2);
  expect(placeOf(result.state)).toEqual({ kind: 'cursor', value: 'after-201' });
});

test('a rate-limit wait that does not fit, after some pages: the poll ends and keeps its place', async () => {
  const credential = await credentialOf();
  const clock = fakeClock(T0);
  const transport = scriptedTransport([page(400, 301), status(429, { 'Retry-After': '120' })]);
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now, maxWaitMs: 20_000 });
  const result = await client.pollNewLinks(markedAt(1, credential));
  expect(result.links).toEqual([]);
  expect(placeOf(result.state)).toEqual({ kind: 'cursor', value: 'after-301' });
});

test('the same wait on the first request is an error: nothing was learned, nothing is saved', async () => {
  const credential = await credentialOf();
  const clock = fakeClock(T0);
  const transport = scriptedTransport([status(429, { 'Retry-After': '120' })]);
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now, maxWaitMs: 20_000 });
  await expect(client.pollNewLinks(markedAt(1, credential))).rejects.toMatchObject({ kind: 'rate_limit', retryAfterMs: 120_000 });
});

test('another key of the same account keeps the state; another account starts over', async () => {
  const clock = fakeClock(T0);
  const sameAccount = scriptedTransport([ok(ACCOUNT), page(5, 1, false)]);
  const client = createClient({ baseUrl: BASE_URL, apiKey: 'sk_live_ROTATED_KEY_99999999', transport: sameAccount, sleep: clock.sleep, now: clock.now });
  const kept = await client.pollNewLinks(markedAt(3, 'fnv:0000000000000000'));
  expect(kept.links.map((l) => l.id)).toEqual(['4', '5']);
  expect(kept.notices).toEqual([]);

  const otherAccount = scriptedTransport([ok({ ...ACCOUNT, id: '8' }), page(5, 1, false)]);
  const other = createClient({ baseUrl: BASE_URL, apiKey: 'sk_live_OTHER_ACCOUNT_KEY_1', transport: otherAccount, sleep: clock.sleep, now: clock.now });
  const restarted = await other.pollNewLinks(markedAt(3, 'fnv:0000000000000000'));
  expect(restarted.links).toEqual([]);
  expect(restarted.state.mark?.ids).toEqual(['5']);
  expect(restarted.state.owner?.account).toBe('8');
  expect(restarted.notices[0]).toMatch(/belongs to another account/);
});

test('maxLinks and timeLimitMs are checked before any request, by name', async () => {
  const transport = scriptedTransport([]);
  const clock = fakeClock();
  const client = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now });
  await expect(client.pollNewLinks(undefined, { maxLinks: 0 })).rejects.toMatchObject({ field: 'maxLinks' });
  await expect(client.pollNewLinks(undefined, { timeLimitMs: -1 })).rejects.toMatchObject({ field: 'timeLimitMs' });
  await expect(client.pollNewLinks(undefined, { since: 'yesterday' })).rejects.toMatchObject({ field: 'since' });
  expect(transport.requests).toHaveLength(0);
});
