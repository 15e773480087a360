/** The retry policy (README "Retries"): which failures are retried, how often and how long apart. */
import { NetworkError, NotFoundError, ServerError, createClient } from '../src/portable';
import { backoffDelayMs } from '../src/http/retry-policy';
import { BASE_URL, created, fakeClock, link } from './helpers';
import { Step, ok, scriptedTransport, status } from './scripted-transport';

function setup(steps: Step[], random = () => 0) {
  const clock = fakeClock();
  const transport = scriptedTransport(steps);
  const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random });
  return { client, clock, transport };
}

describe('idempotent methods retry on 5xx, resets and timeouts', () => {
  test('GET retries 503 and 502 with exponential backoff, then succeeds', async () => {
    const { client, clock, transport } = setup([status(503), status(502), ok(link())]);
    await expect(client.getLink('1042')).resolves.toEqual(link());
    expect(transport.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([150, 300]); // random 0 → half of 300, 600
  });

  test.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED'])('GET retries after %s', async (code) => {
    const { client, transport } = setup([{ fail: code }, ok(link())]);
    await expect(client.getLink('1042')).resolves.toEqual(link());
    expect(transport.requests).toHaveLength(2);
  });

  test('gives up after maxRetries (3) with the last error', async () => {
    const { client, transport } = setup([status(500), status(500), status(500), status(500)]);
    await expect(client.getAccount()).rejects.toBeInstanceOf(ServerError);
    expect(transport.requests).toHaveLength(4);
  });

  test('PATCH retries with the same body', async () => {
    const { client, transport } = setup([{ fail: 'ECONNRESET' }, status(504), ok(link({ title: 'x' }))]);
    await client.updateLink('1042', { title: 'x' });
    expect(transport.requests.map((r) => r.body)).toEqual([{ title: 'x' }, { title: 'x' }, { title: 'x' }]);
  });

  test('4xx other than 429 is never retried', async () => {
    const { client, transport } = setup([status(404)]);
    await expect(client.getLink('1')).rejects.toBeInstanceOf(NotFoundError);
    expect(transport.requests).toHaveLength(1);
  });

  test('503 with Retry-After waits at least that long', async () => {
    const { client, clock } = setup([status(503, { 'retry-after': '2' }), ok()]);
    await client.getAccount();
    expect(clock.sleeps).toEqual([2000]);
  });
});

describe('DELETE after a lost answer', () => {
  test('reset, then 404: the first attempt deleted it, so it counts as deleted', async () => {
    const { client, transport } = setup([{ fail: 'ECONNRESET' }, status(404)]);
    await expect(client.deleteLink('1042')).resolves.toBeUndefined();
    expect(transport.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
  });

  test('502, then 404: counts as deleted', async () => {
    const { client } = setup([status(502), status(404)]);
    await expect(client.deleteLink('1042')).resolves.toBeUndefined();
  });

  test('404 on the first attempt is a NotFoundError', async () => {
    const { client } = setup([status(404)]);
    await expect(client.deleteLink('1042')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('refused (never sent), then 404: still a NotFoundError', async () => {
    const { client } = setup([{ fail: 'ECONNREFUSED' }, status(404)]);
    await expect(client.deleteLink('1042')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('POST create retries only when certainly not processed', () => {
  const input = { targetUrl: 'https://example.org/a' };
  const createdAnswer = { status: 201, headers: {}, body: created() };

  test.each([
    ['500', status(500)],
    ['503', status(503)],
    ['ECONNRESET', { fail: 'ECONNRESET' }],
    ['ETIMEDOUT', { fail: 'ETIMEDOUT' }],
  ] as const)('%s is never sent again blindly: the account is asked first (create-reconcile.test.ts)', async (_name, step) => {
    // Stored with the request's marker (random() is 0: "AAAAAAAAAA"), found by it in both looks.
    const stored = link({ targetUrl: input.targetUrl, slug: 'AAAAAAAAAA' });
    const date = { date: new Date(Date.parse(stored.createdAt)).toUTCString() };
    const { client, transport } = setup([step as Step, ok({ data: [stored], nextCursor: null }, date), ok({ data: [stored], nextCursor: null })]);
    await expect(client.createLink(input)).resolves.toEqual(stored);
    expect(transport.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /links', 'GET /links', 'GET /links']);
  });

  test('a create refused every time is a plain network error: nothing was created', async () => {
    const refused: Step = { fail: 'ECONNREFUSED' };
    const { client } = setup([refused, refused, refused, refused, refused, refused]);
    const error = (await client.createLink(input).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).not.toMatch(/may have been created/);
  });

  test('a GET lost after a reset has an unknown outcome but no create advice', async () => {
    const reset: Step = { fail: 'ECONNRESET' };
    const { client } = setup([reset, reset, reset, reset, reset, reset]);
    const error = (await client.getLink('1042').catch((e: unknown) => e)) as NetworkError;
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).not.toMatch(/may have been created/);
  });

  test('ECONNREFUSED is retried (never sent)', async () => {
    const { client, transport } = setup([{ fail: 'ECONNREFUSED' }, createdAnswer]);
    await expect(client.createLink(input)).resolves.toEqual(created());
    expect(transport.requests).toHaveLength(2);
  });

  test('429 is retried after Retry-After (not processed)', async () => {
    const { client, clock, transport } = setup([status(429, { 'retry-after': '3' }), createdAnswer]);
    await expect(client.createLink(input)).resolves.toEqual(created());
    expect(transport.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([3000]);
  });
});

describe('backoff', () => {
  test('jitter comes from the injected random', async () => {
    const low = setup([status(500), status(500), status(500), ok()], () => 0);
    await low.client.getAccount();
    const high = setup([status(500), status(500), status(500), ok()], () => 1);
    await high.client.getAccount();
    expect(low.clock.sleeps).toEqual([150, 300, 600]);
    expect(high.clock.sleeps).toEqual([300, 600, 1200]);
  });

  test('is bounded', () => {
    for (let attempt = 0; attempt < 60; attempt++) {
      const delay = backoffDelayMs(attempt, Math.random);
      expect(delay).toBeGreaterThanOrEqual(150);
      expect(delay).toBeLessThanOrEqual(8000);
    }
  });

  test('maxRetries 0 disables retries', async () => {
    const clock = fakeClock();
    const transport = scriptedTransport([status(503)]);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, maxRetries: 0 });
    await expect(client.getAccount()).rejects.toBeInstanceOf(ServerError);
    expect(transport.requests).toHaveLength(1);
  });
});
