/** Retries against the sandbox's injected faults (5xx, resets, 429 storms), with a fast injected sleep. */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { NetworkError, createAxiosTransport, createClient } from '@shortlink/core';
import type { Transport } from '@shortlink/core';

let sandbox: Sandbox;
const quickSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 5)));

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
});
afterEach(async () => {
  await sandbox.close();
});

test('reads survive 5xx, resets and 429 storms', async () => {
  sandbox.setFaults({ errorRate: 0.25, resetBeforeRate: 0.1, rateLimitStormRate: 0.1, randomSeed: 7 });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: quickSleep, maxRetries: 8 });
  for (let i = 0; i < 30; i++) await expect(client.getAccount()).resolves.toMatchObject({ name: 'Demo Business' });
  expect(sandbox.requests.length).toBeGreaterThan(30); // some attempts failed and were retried
});

test('DELETE whose answer was lost: the retry gets 404 and the call counts as done', async () => {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  const { id } = await client.createLink({ targetUrl: 'https://example.org/doomed' });
  const axiosTransport = createAxiosTransport({ apiKey: sandbox.apiKey });
  let lost = false;
  // The service processes the first DELETE; its answer is lost on the way back.
  const losing: Transport = async (request) => {
    const response = await axiosTransport(request);
    if (request.method === 'DELETE' && !lost) {
      lost = true;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    }
    return response;
  };
  const flaky = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport: losing, sleep: quickSleep });
  await expect(flaky.deleteLink(id)).resolves.toBeUndefined();
  expect(sandbox.requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  expect(sandbox.links(sandbox.demoAccountId).some((l) => l.id === id)).toBe(false);
});

test('POST whose answer was lost is not retried (no duplicate); findOrCreateLink then finds it', async () => {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: quickSleep });
  sandbox.setFaults({ resetAfterRate: 1 });
  const error = await client.createLink({ targetUrl: 'https://example.org/maybe', slug: 'maybe' }).catch((e: unknown) => e);
  sandbox.setFaults(undefined);
  expect(error).toBeInstanceOf(NetworkError);
  expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  const again = await client.findOrCreateLink({ targetUrl: 'https://example.org/maybe', slug: 'maybe' });
  expect(again.created).toBe(false);
  expect(sandbox.links(sandbox.demoAccountId).filter((l) => l.slug === 'maybe')).toHaveLength(1);
});

test('POST that was refused (never sent) is retried', async () => {
  const axiosTransport = createAxiosTransport({ apiKey: sandbox.apiKey });
  let refused = false;
  const refusingOnce: Transport = async (request) => {
    if (!refused) {
      refused = true;
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    }
    return axiosTransport(request);
  };
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport: refusingOnce, sleep: quickSleep });
  await expect(client.createLink({ targetUrl: 'https://example.org/retry' })).resolves.toMatchObject({ targetUrl: 'https://example.org/retry' });
  expect(sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === 'https://example.org/retry')).toHaveLength(1);
});
