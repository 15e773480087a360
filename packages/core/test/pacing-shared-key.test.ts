/**
 * Several clients on one API key, each with its own pacer (other n8n executions, workers, processes), that
 * know of each other only through the RateLimit-* headers. Simulated in virtual time against a fixed window
 * like the service's, with network latency, so that the others' requests are really on the way while a
 * client decides (README "Pacing with concurrent clients").
 */
import { createClient } from '../src/portable';
import type { Transport } from '../src/portable';
import { BASE_URL, fakeClock } from './helpers';
import { virtualTime, type VirtualTime } from './virtual-time';

const LIMIT = 120;
const WINDOW_MS = 6_000;

/** A deterministic pseudo-random source (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One key's fixed window, as the sandbox and the service keep it: it starts with the first request after the
 * previous one ended; Reset and Retry-After in whole seconds (rounded up).
 */
function sharedKeyService(time: VirtualTime) {
  let windowStart = -Infinity;
  let count = 0;
  const answers: Array<{ status: number; window: number; client: number; at: number }> = [];
  let windows = 0;
  let firstSentAt: number | undefined;

  /** The transport of client `client`: one-way latency `latencyMs()` each way. */
  function transportFor(client: number, latencyMs: () => number): Transport {
    return async () => {
      firstSentAt ??= time.now();
      await time.sleep(latencyMs());
      const now = time.now();
      if (now >= windowStart + WINDOW_MS) {
        windowStart = now;
        count = 0;
        windows++;
      }
      count++;
      const reset = String(Math.ceil((windowStart + WINDOW_MS - now) / 1000));
      const headers: Record<string, string> = {
        'ratelimit-limit': String(LIMIT),
        'ratelimit-remaining': String(Math.max(0, LIMIT - count)),
        'ratelimit-reset': reset,
      };
      const status = count > LIMIT ? 429 : 200;
      if (status === 429) headers['retry-after'] = reset;
      await time.sleep(latencyMs());
      answers.push({ status, window: windows, client, at: time.now() });
      return status === 429 ? { status, headers, body: { title: 'Too many requests', status } } : { status, headers, body: { id: '1' } };
    };
  }

  return {
    transportFor,
    answers,
    tooMany: () => answers.filter((a) => a.status === 429).length,
    /** Successful requests per window, in order. */
    perWindow: () => {
      const counts: number[] = [];
      for (const a of answers) if (a.status === 200) counts[a.window - 1] = (counts[a.window - 1] ?? 0) + 1;
      return counts;
    },
    /** Achieved / allowed (bench/lib/statistics rateUse): 1.0 when every window is spent at once. */
    rateUse: () => {
      const ok = answers.filter((a) => a.status === 200).length;
      const span = Math.max(...answers.map((a) => a.at)) - firstSentAt!;
      return ok / (LIMIT * (1 + span / WINDOW_MS));
    },
  };
}

/**
 * `calls.length` clients, each with its own pacer, make `calls[c]` calls each (one after another) on one key.
 * One-way latency `latencyMs` (a range: each request draws its own, so the clients drift apart).
 */
async function run(calls: number[], latencyMs: [number, number], seed = 1) {
  const time = virtualTime();
  const service = sharedKeyService(time);
  const random = seeded(seed);
  const [low, high] = latencyMs;
  const failures: unknown[] = [];
  const work = Promise.all(
    calls.map(async (count, c) => {
      const client = createClient({ baseUrl: BASE_URL, transport: service.transportFor(c, () => low + (high - low) * random()), sleep: time.sleep, now: time.now, random });
      for (let i = 0; i < count; i++) await client.getAccount().catch((error: unknown) => failures.push(error));
    }),
  );
  await time.run(work);
  return { service, failures };
}

/** `clients` clients sharing `total` calls as evenly as can be. */
const split = (clients: number, total: number) => Array.from({ length: clients }, (_, c) => Math.floor(total / clients) + (c < total % clients ? 1 : 0));

const FIVE_FULL_WINDOWS = [LIMIT, LIMIT, LIMIT, LIMIT, LIMIT];

/**
 * What the window's last requests may cost (pacer LAST_REQUESTS): a client that read a Remaining of 1 or 2 and
 * stopped for the reserve sends once the others' requests had time to land. When they took those requests,
 * that is a 429; each Remaining is read by one request only, so at most two per window change.
 */
const LAST_REQUESTS_429S_PER_WINDOW = 2;

describe('pacing with concurrent clients on one key', () => {
  test('four clients with a steady 10 ms latency: every window spent in full, 429s only for the last requests', async () => {
    const { service, failures } = await run(split(4, 600), [10, 10]);
    expect(failures).toEqual([]);
    expect(service.tooMany()).toBeLessThanOrEqual(LAST_REQUESTS_429S_PER_WINDOW * 4);
    expect(service.perWindow()).toEqual(FIVE_FULL_WINDOWS);
    expect(service.rateUse()).toBeGreaterThan(0.95);
  });

  test.each([4, 16])('%i clients with a latency of 5–25 ms: under half the 429s of a race for the last requests, every window spent', async (clients) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { service, failures } = await run(split(clients, 600), [5, 25], seed);
      expect(failures).toEqual([]);
      // Racing for the last requests of each window, every other client's request on the way is a 429:
      // (clients - 1) per window change (measured without the reserve: 12 and 60 in these runs). The reserve
      // halves that; the window's last requests add at most two per window change.
      expect(service.tooMany()).toBeLessThanOrEqual(((clients - 1) * 4) / 2 + LAST_REQUESTS_429S_PER_WINDOW * 4);
      // Every window spent in full while all clients are busy: 600 calls are exactly five windows, and one
      // request left unspent pushes the last call into a sixth (rate use about 0.83 instead of about 0.97;
      // without the last requests 6 of these 10 runs did). In the last window, where the clients finish one
      // after the other, 16 clients still left 3 unspent in 2 of 5 seeds here (README, "Pacing with
      // concurrent clients").
      const windows = service.perWindow();
      expect(windows.slice(0, 4)).toEqual([LIMIT, LIMIT, LIMIT, LIMIT]);
      expect(LIMIT - windows[4]!).toBeLessThanOrEqual(clients === 4 ? 0 : 3);
      expect(windows.reduce((sum, n) => sum + n, 0)).toBe(600);
    }
  });

  test("the window's last requests are sent once the others' had time to land, not left for the reset", async () => {
    // One client's view: others spend 9 between its answers (reserve 9); then Remaining reads 5, 2, 1, 0.
    const clock = fakeClock();
    const remaining = [100, 90, 80, 70, 5, 2, 1, 0];
    let answered = 0;
    const transport: Transport = async () => {
      clock.advance(5); // the round trip
      const headers = { 'ratelimit-limit': '120', 'ratelimit-remaining': String(remaining[answered++]), 'ratelimit-reset': '5' };
      return { status: 200, headers, body: { id: '1' } };
    };
    const client = createClient({ baseUrl: BASE_URL, transport, sleep: clock.sleep, now: clock.now });
    for (let i = 0; i < remaining.length; i++) await client.getAccount();
    // At 5 (≤ the reserve, not among the last two) it waits for the reset. In the new window it reads 2: it
    // waits 20 ms (two round trips, at least 20 ms) for the others' requests on the way, then sends; that
    // answer (1) shows nobody else spent meanwhile, the reserve drops to 0 and the last one goes at once.
    expect(clock.sleeps[0]).toBeGreaterThan(4_000);
    expect(clock.sleeps.slice(1)).toEqual([20]);
    expect(answered).toBe(remaining.length);
  });

  test('alone, a client spends every window to its last request', async () => {
    const { service } = await run([600], [5, 25]);
    expect(service.tooMany()).toBe(0);
    expect(service.perWindow()).toEqual(FIVE_FULL_WINDOWS);
  });

  test('when the others stop spending, the reserve goes back to 0 and the windows are spent in full', async () => {
    // Three clients stop after 100 calls each (in the third window); the fourth goes on alone to the end.
    const { service, failures } = await run([100, 100, 100, 300], [10, 10]);
    expect(failures).toEqual([]);
    expect(service.tooMany()).toBeLessThanOrEqual(LAST_REQUESTS_429S_PER_WINDOW * 4);
    expect(service.perWindow()).toEqual(FIVE_FULL_WINDOWS);
  });

  test("a client's own parallel calls are not mistaken for others: the window is spent in full", async () => {
    const time = virtualTime();
    const service = sharedKeyService(time);
    const random = seeded(7);
    const client = createClient({ baseUrl: BASE_URL, transport: service.transportFor(0, () => 5 + 20 * random()), sleep: time.sleep, now: time.now, random });
    let next = 0;
    const work = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 360) {
          next++;
          await client.getAccount();
        }
      }),
    );
    await time.run(work);
    expect(service.tooMany()).toBe(0);
    expect(service.perWindow()).toEqual([LIMIT, LIMIT, LIMIT]);
  });
});
