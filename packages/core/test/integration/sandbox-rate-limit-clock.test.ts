/**
 * Rate-limit times on the service's clock (docs/guarantees.md, "Rate-limit times"), over real HTTP: the
 * sandbox's clock runs an hour ahead (its Date header says so) and it writes the reset as an epoch time or
 * Retry-After as an HTTP date. Read on our clock either would be a wait of an hour (RateLimitError: longer
 * than the client may wait); read on the service's clock it is the window's few seconds.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 2, windowSeconds: 2 } });
});
afterAll(async () => {
  await sandbox?.close();
});

function client(waits: number[]) {
  return createClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    sleep: async (ms) => {
      waits.push(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
}

test.each([
  ['an epoch RateLimit-Reset', 'epoch' as const],
  ['an HTTP-date Retry-After', 'http-date' as const],
])('%s of a service an hour ahead costs the window, not an hour', async (_name, rateLimitTimes) => {
  sandbox.setQuirks({ rateLimitTimes, dateOffsetMs: 3600_000 });
  await new Promise((resolve) => setTimeout(resolve, 2100)); // a fresh window
  const waits: number[] = [];
  const first = client(waits);
  await first.getAccount();
  await first.getAccount(); // the window is spent
  // A second client knows nothing of the window: it meets the 429 (with an HTTP date in the 'http-date' form).
  const second = client(waits);
  await expect(second.getAccount()).resolves.toMatchObject({ id: expect.anything() });
  await expect(first.getAccount()).resolves.toMatchObject({ id: expect.anything() });
  expect(waits.length).toBeGreaterThan(0);
  for (const wait of waits) expect(wait).toBeLessThanOrEqual(4000);
});
