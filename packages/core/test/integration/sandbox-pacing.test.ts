/**
 * Pacing against the sandbox's real limiter with scaled windows. Asserts only counts (no failed call, no
 * 429 reaching the caller, no request beyond the budget); the achieved rate is printed, never asserted.
 */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { createClient, createAxiosTransport } from '@shortlink/core';
import type { Transport } from '@shortlink/core';

/** The axios transport, counting the statuses the service answered. */
function countingTransport(apiKey: string) {
  const inner = createAxiosTransport({ apiKey });
  const statuses: number[] = [];
  const transport: Transport = async (request) => {
    const response = await inner(request);
    statuses.push(response.status);
    return response;
  };
  return { transport, statuses };
}

describe('pacing against the sandbox', () => {
  let sandbox: Sandbox;
  afterEach(async () => {
    await sandbox?.close();
  });

  test('10 requests per 2 s: 25 sequential calls wait for each reset and never provoke a 429', async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10, windowSeconds: 2 } });
    const { transport, statuses } = countingTransport(sandbox.apiKey);
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport });
    for (let i = 0; i < 25; i++) await client.getAccount();
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses).toHaveLength(25);
  });

  test('10 requests per 2 s: 25 parallel calls share the budget', async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10, windowSeconds: 2 } });
    const { transport, statuses } = countingTransport(sandbox.apiKey);
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport });
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => client.getAccount()));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  test('a wait above maxWaitMs throws RateLimitError instead of sleeping', async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 2, windowSeconds: 30 } });
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, maxWaitMs: 1000 });
    await client.getAccount();
    await client.getAccount();
    const error = await client.getAccount().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: expect.any(Number) });
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(1000);
  });

  test('bulk create: 300 links at 120 per 6 s, no failed call, no 429 reaching the caller', async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 120, windowSeconds: 6 } });
    const { transport, statuses } = countingTransport(sandbox.apiKey);
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport });
    const total = 300;
    const workers = 4;
    let next = 0;
    const failures: unknown[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < total) {
          const i = next++;
          await client.createLink({ targetUrl: `https://example.org/bulk/${i}`, title: `Bulk ${i}` }).catch((e: unknown) => failures.push(e));
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(failures).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(total);
    const rejected = statuses.filter((s) => s === 429).length;
    console.log(
      `bulk create: ${total} links in ${seconds.toFixed(1)} s — achieved ${(total / seconds).toFixed(1)} req/s vs allowed ${(120 / 6).toFixed(1)} req/s ` +
        `(429 answers absorbed: ${rejected})`,
    );
    expect(sandbox.links(sandbox.demoAccountId).length).toBe(3 + total);
  });
});
