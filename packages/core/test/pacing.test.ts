/** Proactive pacing (README "Pacing"): wait for the reset instead of provoking a 429, shared by all calls. */
import { RateLimitError, createClient } from '../src/portable';
import type { Transport, TransportRequest } from '../src/portable';
import { BASE_URL, fakeClock } from './helpers';
import { scriptedTransport, status } from './scripted-transport';

/** A fixed-window limiter like the service's: the window starts with its first request. */
function limitedService(clock: { now: () => number }, limit: number, windowMs: number) {
  let windowStart = -Infinity;
  let count = 0;
  let inFlight = 0;
  const stats = { sent: 0, rejected: 0, maxInFlight: 0, maxInFlightBeforeFirstAnswer: 0, answered: 0 };
  const transport: Transport = async (_request: TransportRequest) => {
    stats.sent++;
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    if (stats.answered === 0) stats.maxInFlightBeforeFirstAnswer = Math.max(stats.maxInFlightBeforeFirstAnswer, inFlight);
    // Let other calls run while this one is "on the wire".
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const now = clock.now();
    if (now >= windowStart + windowMs) {
      windowStart = now;
      count = 0;
    }
    count++;
    const reset = String(Math.ceil((windowStart + windowMs - now) / 1000));
    const headers = { 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(Math.max(0, limit - count)), 'ratelimit-reset': reset };
    inFlight--;
    stats.answered++;
    if (count > limit) {
      stats.rejected++;
      return { status: 429, headers: { ...headers, 'retry-after': reset }, body: { title: 'Too many requests', status: 429 } };
    }
    return { status: 200, headers, body: { id: '1' } };
  };
  return { transport, stats };
}

describe('pacing', () => {
  test('sequential calls wait for the reset when Remaining is 0 and never see a 429', async () => {
    const clock = fakeClock();
    const { transport, stats } = limitedService(clock, 3, 10_000);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    for (let i = 0; i < 7; i++) await client.getAccount();
    expect(stats).toMatchObject({ sent: 7, rejected: 0 });
    expect(clock.sleeps).toEqual([10_000, 10_000]);
  });

  test('parallel calls share the budget: none spends a request that is not there', async () => {
    const clock = fakeClock();
    const { transport, stats } = limitedService(clock, 4, 2000);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    await Promise.all(Array.from({ length: 25 }, () => client.getAccount()));
    expect(stats.sent).toBe(25);
    expect(stats.rejected).toBe(0);
    expect(stats.maxInFlight).toBeGreaterThan(1); // the budget, once known, is spent in parallel
  });

  test('while the budget is unknown one request goes alone', async () => {
    const clock = fakeClock();
    const { transport, stats } = limitedService(clock, 50, 60_000);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    await Promise.all(Array.from({ length: 10 }, () => client.getAccount()));
    expect(stats.maxInFlightBeforeFirstAnswer).toBe(1);
  });

  test('a service without rate-limit headers is not paced', async () => {
    const clock = fakeClock();
    let inFlight = 0;
    let maxInFlight = 0;
    const transport: Transport = async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return { status: 200, headers: {}, body: { id: '1' } };
    };
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    await client.getAccount();
    await Promise.all(Array.from({ length: 5 }, () => client.getAccount()));
    expect(maxInFlight).toBe(5);
    expect(clock.sleeps).toEqual([]);
  });

  test('a needed wait above maxWaitMs throws RateLimitError instead of sleeping or sending', async () => {
    const clock = fakeClock();
    const transport = scriptedTransport([{ status: 200, headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '45' }, body: { id: '1' } }]);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, maxWaitMs: 30_000 });
    await client.getAccount();
    const error = await client.getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 45_000, status: 429 });
    expect((error as Error).message).toBe(
      'Rate limit reached: the service accepts the next request in 45 s, longer than this client may wait (30 s). Try again later.',
    );
    expect(transport.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test('a 429 whose Retry-After is above maxWaitMs throws at once with retryAfterMs', async () => {
    const clock = fakeClock();
    const transport = scriptedTransport([
      status(429, { 'retry-after': '90' }, { type: 'https://shortlink.example/docs/api/errors#rate-limited', title: 'Too many requests', status: 429, detail: 'retry in 90 seconds.' }),
    ]);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, maxWaitMs: 30_000 });
    const error = await client.getAccount().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 90_000, detail: 'retry in 90 seconds.' });
    expect(clock.sleeps).toEqual([]);
  });

  test('a 429 makes every concurrent call of the client wait', async () => {
    const clock = fakeClock();
    const steps = scriptedTransport([
      status(429, { 'retry-after': '5', 'ratelimit-remaining': '3', 'ratelimit-reset': '60' }),
      { status: 200, headers: { 'ratelimit-remaining': '2', 'ratelimit-reset': '55' }, body: { id: '1' } },
      { status: 200, headers: { 'ratelimit-remaining': '1', 'ratelimit-reset': '55' }, body: { id: '1' } },
    ]);
    const start = clock.now();
    const sentAt: number[] = [];
    const transport: Transport = (request) => {
      sentAt.push(clock.now() - start);
      return steps(request);
    };
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    await Promise.all([client.getAccount(), client.getAccount()]);
    expect(sentAt).toEqual([0, 5000, 5000]);
    expect(clock.sleeps).toEqual([5000]);
  });

  test('a 429 whose Retry-After rounds up a reset the client knows more precisely waits only for that reset', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const sentAt: number[] = [];
    const steps = scriptedTransport([
      { status: 200, headers: { 'ratelimit-limit': '120', 'ratelimit-remaining': '1', 'ratelimit-reset': '10' }, body: { id: '1' } },
      // 9.7 s before the reset, announced as 10 s (whole seconds, rounded up): another client took the last request.
      status(429, { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '10', 'retry-after': '10' }),
      { status: 200, headers: { 'ratelimit-limit': '120', 'ratelimit-remaining': '119', 'ratelimit-reset': '10' }, body: { id: '1' } },
    ]);
    const transport: Transport = (request) => {
      sentAt.push(clock.now() - start);
      return steps(request);
    };
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    await client.getAccount();
    clock.advance(300);
    await client.getAccount();
    // Not 10 s after the 429 (10.3 s): the other clients, knowing the reset, would spend the new window first.
    expect(sentAt).toEqual([0, 300, 10_000]);
  });

  test('429s saying the window is spent are waited out as often as they come, within the time limit', async () => {
    const clock = fakeClock();
    const spent = () => status(429, { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '2', 'retry-after': '2' });
    const transport = scriptedTransport([spent(), spent(), spent(), spent(), spent(), { status: 200, headers: { 'ratelimit-remaining': '100', 'ratelimit-reset': '60' }, body: { id: '1' } }]);
    // Other clients on the key win the window five times in a row: waiting is not failing.
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random: () => 0 });
    await expect(client.getAccount()).resolves.toMatchObject({ id: '1' });
    expect(transport.requests).toHaveLength(6);
    expect(clock.sleeps).toEqual([2000, 2000, 2000, 2000, 2000]);
  });

  test('429s while requests remain (a storm) are still retried at most maxRetries times', async () => {
    const clock = fakeClock();
    const storm = () => status(429, { 'ratelimit-limit': '120', 'ratelimit-remaining': '50', 'ratelimit-reset': '30', 'retry-after': '1' });
    const transport = scriptedTransport([storm(), storm(), storm(), storm()]);
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random: () => 0 });
    await expect(client.getAccount()).rejects.toBeInstanceOf(RateLimitError);
    expect(transport.requests).toHaveLength(4);
  });

  describe('pacing state handed from one client to the next (a host whose steps each get a new client)', () => {
    test('a client started from the state of one that spent the window waits for that reset: no probe, no 429', async () => {
      const clock = fakeClock();
      const { transport, stats } = limitedService(clock, 3, 10_000);
      const first = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
      for (let i = 0; i < 3; i++) await first.getAccount();
      const state = JSON.parse(JSON.stringify(first.pacingState())) as unknown; // as a cache gives it back
      clock.advance(2_000);
      const next = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, pacingState: state });
      await next.getAccount();
      expect(stats).toMatchObject({ sent: 4, rejected: 0 });
      expect(clock.sleeps).toEqual([8_000]); // the rest of the window, not a Retry-After rounded up
    });

    test('without it, the new client sends blind into the spent window and gets a 429 first', async () => {
      const clock = fakeClock();
      const { transport, stats } = limitedService(clock, 3, 10_000);
      const first = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
      for (let i = 0; i < 3; i++) await first.getAccount();
      clock.advance(2_000);
      const next = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, random: () => 0 });
      await next.getAccount();
      expect(stats).toMatchObject({ sent: 5, rejected: 1 });
    });

    test('a state from a window that has reset since starts a new window with a probe; unusable states are ignored', async () => {
      for (const state of [undefined, 'remaining: 0', { v: 2, atMs: 1, remaining: 0, resetAtMs: Date.parse('2026-03-01T10:00:00Z') }, { v: 1, atMs: -5 }]) {
        const clock = fakeClock();
        const { transport, stats } = limitedService(clock, 3, 10_000);
        const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, pacingState: state });
        await Promise.all([client.getAccount(), client.getAccount()]);
        expect(stats.maxInFlightBeforeFirstAnswer).toBe(1); // blind: the first request went alone
        expect(clock.sleeps).toEqual([]);
      }
      const clock = fakeClock();
      const { transport } = limitedService(clock, 3, 10_000);
      const old = { v: 1, atMs: clock.now() - 20_000, remaining: 0, resetAtMs: clock.now() - 10_000, limit: 3, othersSamples: [1, 2, 'x'] };
      const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now, pacingState: old });
      await client.getAccount();
      expect(clock.sleeps).toEqual([]);
      expect(client.pacingState()).toMatchObject({ v: 1, limit: 3, remaining: 2, othersSamples: [1, 2] });
    });
  });
});

