/** Every header form the pacer reads, as pure parsing and through the client over nock. */
import nock from 'nock';
import { createClient } from '../src/index';
import { parseRateLimitHeaders, parseRetryAfterMs } from '../src/http/rate-limit-headers';
import { API, API_KEY, BASE_URL, fakeClock } from './helpers';
import { ACCOUNT, api, offContract } from './nock-api';

const NOW = Date.parse('2026-03-01T09:30:00.000Z');

describe('parseRateLimitHeaders', () => {
  test('RateLimit-* with Reset as delta seconds', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-limit': '120', 'ratelimit-remaining': '7', 'ratelimit-reset': '42' }, NOW)).toEqual({
      limit: 120,
      remaining: 7,
      resetAtMs: NOW + 42_000,
    });
  });

  test('Reset larger than ten years of seconds is an epoch timestamp (seconds)', () => {
    const epochSeconds = NOW / 1000 + 30;
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(epochSeconds) }, NOW).resetAtMs).toBe(NOW + 30_000);
  });

  test('Reset in epoch milliseconds', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(NOW + 5000) }, NOW).resetAtMs).toBe(NOW + 5000);
  });

  test('a delta beyond an hour is no rate limit: unknown, not a wall (a Reset of 315000000 would be ten years)', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-reset': '315000000' }, NOW).resetAtMs).toBeUndefined();
    expect(parseRateLimitHeaders({ 'ratelimit-reset': '3601' }, NOW).resetAtMs).toBeUndefined();
    expect(parseRateLimitHeaders({ 'ratelimit-reset': '3600' }, NOW).resetAtMs).toBe(NOW + 3600_000);
  });

  test("an epoch Reset is read on the service's clock: its Date header, else the offset learned", () => {
    const serviceNow = NOW + 3600_000; // the service's clock is an hour ahead of ours
    const reset = String(serviceNow / 1000 + 5);
    const withDate = { 'ratelimit-remaining': '0', 'ratelimit-reset': reset, date: new Date(serviceNow).toUTCString() };
    expect(parseRateLimitHeaders(withDate, NOW).resetAtMs).toBe(NOW + 5000);
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': reset }, NOW, 3600_000).resetAtMs).toBe(NOW + 5000);
    // On our own clock the same value would be an hour and five seconds away: implausible, so unknown.
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': reset }, NOW).resetAtMs).toBeUndefined();
  });

  test('an epoch Reset far in the past or the future is unknown', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-reset': String(NOW / 1000 - 7200) }, NOW).resetAtMs).toBeUndefined();
    expect(parseRateLimitHeaders({ 'ratelimit-reset': String(NOW / 1000 + 7200) }, NOW).resetAtMs).toBeUndefined();
    expect(parseRateLimitHeaders({ 'ratelimit-reset': String(NOW / 1000 - 30) }, NOW).resetAtMs).toBe(NOW);
  });

  test('X-RateLimit-* names', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '10' }, NOW)).toEqual({
      limit: 60,
      remaining: 1,
      resetAtMs: NOW + 10_000,
    });
  });

  test('combined RateLimit field, older drafts and draft 8+', () => {
    expect(parseRateLimitHeaders({ ratelimit: 'limit=10, remaining=0, reset=3' }, NOW)).toEqual({ limit: 10, remaining: 0, resetAtMs: NOW + 3000 });
    expect(parseRateLimitHeaders({ ratelimit: '"default";r=4;t=9', 'ratelimit-policy': '"default";q=100;w=60' }, NOW)).toEqual({
      limit: 100,
      remaining: 4,
      resetAtMs: NOW + 9000,
    });
  });

  test('list values take their first number; missing headers give nothing', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-limit': '120, 120;w=60', 'ratelimit-remaining': '"3"' }, NOW)).toEqual({ limit: 120, remaining: 3 });
    expect(parseRateLimitHeaders({}, NOW)).toEqual({});
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': 'soon' }, NOW)).toEqual({});
  });
});

describe('parseRetryAfterMs', () => {
  test('seconds', () => expect(parseRetryAfterMs({ 'retry-after': '12' }, NOW)).toBe(12_000));
  test('fractional seconds', () => expect(parseRetryAfterMs({ 'retry-after': '1.5' }, NOW)).toBe(1500));
  test('HTTP date', () => expect(parseRetryAfterMs({ 'retry-after': new Date(NOW + 20_000).toUTCString() }, NOW)).toBe(20_000));
  test('HTTP date in the past is zero', () => expect(parseRetryAfterMs({ 'retry-after': new Date(NOW - 5000).toUTCString() }, NOW)).toBe(0));
  test("HTTP date on the service's clock (its Date header, else the learned offset)", () => {
    const serviceNow = NOW - 7200_000; // the service's clock is two hours behind ours
    const retryAfter = new Date(serviceNow + 8000).toUTCString();
    expect(parseRetryAfterMs({ 'retry-after': retryAfter, date: new Date(serviceNow).toUTCString() }, NOW)).toBe(8000);
    expect(parseRetryAfterMs({ 'retry-after': retryAfter }, NOW, -7200_000)).toBe(8000);
    expect(parseRetryAfterMs({ 'retry-after': retryAfter }, NOW)).toBeUndefined(); // two hours in the past on our clock
  });
  test('beyond an hour is unknown', () => {
    expect(parseRetryAfterMs({ 'retry-after': '3601' }, NOW)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': new Date(NOW + 2 * 3600_000).toUTCString() }, NOW)).toBeUndefined();
  });
  test('absent or unreadable', () => {
    expect(parseRetryAfterMs({}, NOW)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'later' }, NOW)).toBeUndefined();
  });
});

describe('each form drives the client (nock)', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  function client(clock = fakeClock(NOW)) {
    return { clock, c: createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, random: () => 0 }) };
  }

  test.each([
    ['delta seconds', { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5' }, 5000],
    ['epoch seconds', { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(NOW / 1000 + 7) }, 7000],
    ['X-RateLimit', { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '3' }, 3000],
    ['combined field', { RateLimit: 'limit=2, remaining=0, reset=4' }, 4000],
  ])('Remaining 0 with %s: the next call waits for the reset', async (_name, headers, wait) => {
    const { clock, c } = client();
    offContract(nock(API), 'rate-limit header forms of other services').get('/me').reply(200, ACCOUNT, headers);
    api().get('/me').reply(200, ACCOUNT);
    await c.getAccount();
    await c.getAccount();
    expect(clock.sleeps).toEqual([wait]);
  });

  test.each([
    ['seconds', () => '4', 4000],
    ['HTTP date', () => new Date(NOW + 6000).toUTCString(), 6000],
  ])('429 with Retry-After as %s waits that long and retries', async (_name, retryAfter, wait) => {
    const { clock, c } = client();
    offContract(nock(API), 'Retry-After forms of other services (an HTTP date), a bare 429 body')
      .get('/me')
      .reply(429, { title: 'Too many requests', status: 429 }, { 'Retry-After': retryAfter() });
    api().get('/me').reply(200, ACCOUNT);
    await expect(c.getAccount()).resolves.toEqual(ACCOUNT);
    expect(clock.sleeps).toEqual([wait]);
  });

  test("an hour-ahead service's epoch Reset and HTTP-date Retry-After cost seconds, not an hour", async () => {
    const { clock, c } = client();
    const serviceNow = NOW + 3600_000;
    const date = new Date(serviceNow).toUTCString();
    offContract(nock(API), 'absolute rate-limit times of a service whose clock is an hour ahead')
      .get('/me')
      .reply(200, ACCOUNT, { Date: date, 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(serviceNow / 1000 + 4) })
      .get('/me')
      .reply(429, { title: 'Too many requests', status: 429 }, { Date: new Date(serviceNow + 4000).toUTCString(), 'Retry-After': new Date(serviceNow + 10_000).toUTCString() })
      .get('/me')
      .reply(200, ACCOUNT, { Date: new Date(serviceNow + 10_000).toUTCString() });
    await c.getAccount();
    await expect(c.getAccount()).resolves.toEqual(ACCOUNT);
    expect(clock.sleeps).toEqual([4000, 6000]);
  });

  test('a Reset of ten years is no wall: the next call goes out at once', async () => {
    const { clock, c } = client();
    offContract(nock(API), 'an implausible RateLimit-Reset').get('/me').reply(200, ACCOUNT, { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '315000000' });
    api().get('/me').reply(200, ACCOUNT);
    await c.getAccount();
    await expect(c.getAccount()).resolves.toEqual(ACCOUNT);
    expect(clock.sleeps).toEqual([]);
  });

  test('429 without Retry-After waits for the announced reset', async () => {
    const { clock, c } = client();
    offContract(nock(API), 'a 429 without Retry-After: the pacer falls back to RateLimit-Reset')
      .get('/me')
      .reply(429, { title: 'Too many requests', status: 429 }, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '9' });
    api().get('/me').reply(200, ACCOUNT);
    await c.getAccount();
    expect(clock.sleeps).toEqual([9000]);
  });
});
