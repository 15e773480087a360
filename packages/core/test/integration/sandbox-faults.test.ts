/** Retries against the sandbox's injected faults (5xx, resets, 429 storms), with a fast injected sleep. */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { createAxiosTransport, createClient, UnknownOutcomeError } from '@shortlink/core';
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

describe.each([
  ['the connection reset after the write', { resetAfterRate: 1 }],
  ['a 502 after the write', { serverErrorAfterRate: 1 }],
  ['a 201 whose body is cut in half', { brokenBodyAfterRate: 1 }],
] as const)('a create whose answer is lost after it was stored (%s)', (_name, fault) => {
  test('without a slug: the marker finds the stored link; it is the answer, sent once, one link', async () => {
    const input = { targetUrl: 'https://example.org/maybe-no-slug', title: 'Maybe' };
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: quickSleep });
    sandbox.setFaults({ ...fault, afterFaultMethods: ['POST'] });
    const link = await client.createLink(input);
    sandbox.setFaults(undefined);
    expect(link).toMatchObject(input);
    expect(link.slug).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const stored = sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === input.targetUrl);
    expect(stored.map((l) => l.id)).toEqual([link.id]);
  });

  test('with the user\'s slug: the stored link may be another caller\'s with that slug, so a plain Create says "unknown" and names it; sent once, one link', async () => {
    const input = { targetUrl: 'https://example.org/maybe', slug: 'maybe' };
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: quickSleep });
    sandbox.setFaults({ ...fault, afterFaultMethods: ['POST'] });
    const error = await client.createLink(input).catch((e: unknown) => e);
    sandbox.setFaults(undefined);
    const stored = sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === input.targetUrl);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((error as Error).message).toContain(`a link with this target URL (id ${stored[0]!.id}) appeared`);
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(stored).toHaveLength(1);
    // Find or Create with the same values takes that link as found.
    const found = await client.findOrCreateLink(input);
    expect(found).toEqual({ link: expect.objectContaining({ id: stored[0]!.id }), created: false });
  });
});

test('a create that failed before it was stored is sent again once the account shows nothing', async () => {
  const axiosTransport = createAxiosTransport({ apiKey: sandbox.apiKey });
  let failed = false;
  // A gateway in front of the service answers 502 without passing the first create on.
  const gateway: Transport = async (request) => {
    if (request.method === 'POST' && !failed) {
      failed = true;
      return { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad Gateway</html>' };
    }
    return axiosTransport(request);
  };
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, transport: gateway, sleep: quickSleep });
  const link = await client.createLink({ targetUrl: 'https://example.org/second-try' });
  expect(sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === 'https://example.org/second-try').map((l) => l.id)).toEqual([link.id]);
  expect(sandbox.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST']); // two looks a settle delay apart, then the one create that arrived
});

test('the same target twice in one run: a lost answer never claims the link the first create made', async () => {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: quickSleep });
  const first = await client.createLink({ targetUrl: 'https://example.org/twice' });
  sandbox.setFaults({ serverErrorAfterRate: 1, afterFaultMethods: ['POST'] });
  const second = await client.createLink({ targetUrl: 'https://example.org/twice' });
  sandbox.setFaults(undefined);
  expect(second.id).not.toBe(first.id);
  expect(sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === 'https://example.org/twice')).toHaveLength(2);
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
