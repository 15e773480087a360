/**
 * The plan-quota guard of a run against sandbox accounts with small quotas: a run of N rows with M links
 * left ends with exactly M links and N − M clear errors (or none when chosen), and a quota refusal in the
 * middle of a run stops every further create without sending it.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createAxiosTransport, createClient, PlanQuotaError, ForbiddenError, type Transport, type TransportRequest } from '@shortlink/core';
import { createMemoryRunCache, FormReader, operationByKey, runOperation } from '@shortlink/core/operations';
import { QUOTA_POLICY_FIELD, quotaGate } from '../../src/operations/links/quota-run';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

function clientOf(apiKey: string, sent: TransportRequest[] = []) {
  const axios = createAxiosTransport({ apiKey });
  const transport: Transport = (request) => {
    sent.push(request);
    return axios(request);
  };
  return createClient({ baseUrl: sandbox.baseUrl, apiKey, transport });
}

/** One run of `rows` Find or Create items sharing one cache, as an n8n execution does. */
async function run(apiKey: string, rows: number, policy: string, sent: TransportRequest[], between?: (row: number) => Promise<void>) {
  const client = clientOf(apiKey, sent);
  const store = new Map<string, unknown>();
  const context = { runSize: rows, cache: { get: async (key: string) => store.get(key), set: async (key: string, value: unknown) => void store.set(key, value) } };
  const form = new FormReader({ quotaPolicy: policy }, [QUOTA_POLICY_FIELD]);
  const notices: string[] = [];
  const outcomes: (string | Error)[] = [];
  for (let row = 0; row < rows; row++) {
    await between?.(row);
    const createGate = quotaGate(client, form, context, (notice) => notices.push(notice));
    outcomes.push(await client.findOrCreateLink({ targetUrl: `https://example.org/row-${row}-${Math.random()}` }, { createGate }).then((r) => r.link.id, (e: Error) => e));
  }
  return { outcomes, notices };
}

const posts = (sent: TransportRequest[]) => sent.filter((request) => request.method === 'POST').length;

test('8 rows with 5 links left: 5 links, then 3 clear errors and no request for them', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Small', email: 'small@example.org', plan: 'business', linkQuota: 5 });
  const sent: TransportRequest[] = [];
  const { outcomes, notices } = await run(apiKey, 8, 'createWhatFits', sent);
  expect(outcomes.filter((o) => typeof o === 'string')).toHaveLength(5);
  const errors = outcomes.filter((o): o is Error => o instanceof Error);
  expect(errors).toHaveLength(3);
  for (const error of errors) {
    expect(error).toBeInstanceOf(PlanQuotaError);
    expect(error.message).toMatch(/used up after 5 created in this run; this row was not sent/);
  }
  expect(posts(sent)).toBe(5);
  expect(sent.filter((request) => request.path === '/me')).toHaveLength(1);
  expect(notices).toEqual([]);
});

test('"Stop Before Creating Anything": the first row says it in numbers and nothing is created', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Stop', email: 'stop@example.org', plan: 'business', linkQuota: 5 });
  const sent: TransportRequest[] = [];
  const { outcomes } = await run(apiKey, 8, 'stopBeforeCreating', sent);
  expect(outcomes[0]).toBeInstanceOf(PlanQuotaError);
  expect((outcomes[0] as Error).message).toBe('This run creates up to 8 links; the plan has 5 left this month (0 of 5 used). Nothing was created. Run fewer rows, or choose "Create What Fits" under "When the Link Quota Runs Out".');
  expect(outcomes.every((o) => o instanceof Error)).toBe(true);
  expect(posts(sent)).toBe(0);
});

test('a quota refusal in the middle of a run stops further creates at once (one request, not one per row)', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Shared', email: 'shared@example.org', plan: 'business', linkQuota: 6 });
  const other = clientOf(apiKey);
  const sent: TransportRequest[] = [];
  // Another workflow on the same account uses 4 links after this run read the quota (6 left by its reading).
  const { outcomes } = await run(apiKey, 10, 'createWhatFits', sent, async (row) => {
    if (row === 1) for (let i = 0; i < 4; i++) await other.createLink({ targetUrl: `https://example.org/other-${i}` });
  });
  expect(outcomes.filter((o) => typeof o === 'string')).toHaveLength(2);
  const refused = outcomes.find((o) => o instanceof ForbiddenError) as ForbiddenError;
  expect(refused.reason).toBe('quota');
  expect(outcomes.filter((o) => o instanceof PlanQuotaError)).toHaveLength(7);
  expect(posts(sent)).toBe(3);
});

test('a service that shows no quota: said once, and the run goes on', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Unlimited', email: 'big@example.org', plan: 'enterprise' });
  const sent: TransportRequest[] = [];
  const { outcomes, notices } = await run(apiKey, 3, 'stopBeforeCreating', sent);
  expect(outcomes.every((o) => typeof o === 'string')).toBe(true);
  expect(notices).toEqual(['The service shows no link quota for this account, so no pre-flight check was possible; links are created until the service refuses one.']);
});

describe('runs of one create (a Zapier step, an agent call) on a cache kept between them', () => {
  /** One create per run, every run on the same cache, as Zapier's connection cache or the MCP server's. */
  function singleRuns(apiKey: string, sent: TransportRequest[], clock: { now: number }) {
    const client = clientOf(apiKey, sent);
    const cache = createMemoryRunCache(() => clock.now);
    const create = operationByKey('link.create');
    return {
      cache,
      create: (row: number) =>
        runOperation(create, client, { targetUrl: `https://example.org/single-${row}-${Math.random()}` }, { runSize: 1, cache, now: () => clock.now }).then(
          (result) => String(result.records[0]!.id),
          (e: Error) => e,
        ),
    };
  }

  test('no quota reading and nothing stored: the service answer is the check', async () => {
    const { apiKey } = sandbox.createAccount({ name: 'Single', email: 'single@example.org', plan: 'business', linkQuota: 5 });
    const sent: TransportRequest[] = [];
    const { cache, create } = singleRuns(apiKey, sent, { now: Date.now() });
    expect(typeof (await create(0))).toBe('string');
    expect(typeof (await create(1))).toBe('string');
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /links', 'POST /links']);
    expect(await cache.get('linkQuota')).toBeUndefined();
  });

  test('a quota refusal is remembered: the next runs are told at once, with when, and ten minutes later the service is asked again', async () => {
    const { apiKey } = sandbox.createAccount({ name: 'Used up', email: 'usedup@example.org', plan: 'business', linkQuota: 1 });
    const sent: TransportRequest[] = [];
    const clock = { now: Date.parse('2026-11-27T10:42:00Z') };
    const { create } = singleRuns(apiKey, sent, clock);
    expect(typeof (await create(0))).toBe('string');
    const refused = await create(1);
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect((refused as ForbiddenError).reason).toBe('quota');
    clock.now += 9 * 60_000;
    const told = await create(2);
    expect(told).toBeInstanceOf(PlanQuotaError);
    expect((told as Error).message).toBe(
      "The plan's links for this month are used up; this row was not sent. The service refused a new link at 10:42 UTC; for up to 10 minutes after that, new links are not sent. Rerun it next month or after raising the quota: Find or Create continues without making any link twice.",
    );
    expect(posts(sent)).toBe(2);
    clock.now += 2 * 60_000;
    expect(await create(3)).toBeInstanceOf(ForbiddenError); // asked again: still used up, says the service
    expect(posts(sent)).toBe(3);
  });
});

describe('a rerun of a stopped sheet with Find or Create', () => {
  /** The same ten rows as one run (an n8n execution): every row through the operation, one cache. */
  async function rerun(apiKey: string, quotaPolicy: string, sent: TransportRequest[]) {
    const client = clientOf(apiKey, sent);
    const cache = createMemoryRunCache();
    const findOrCreate = operationByKey('link.findOrCreate');
    const outcomes: Array<{ created: unknown } | Error> = [];
    for (let row = 0; row < 10; row++) {
      const values = { targetUrl: `https://example.org/sheet-row-${row}`, quotaPolicy };
      outcomes.push(await runOperation(findOrCreate, client, values, { runSize: 10, cache }).then((result) => ({ created: result.records[0]!.created }), (e: Error) => e));
    }
    return outcomes;
  }

  async function firstSixDone(linkQuota: number) {
    const account = sandbox.createAccount({ name: `Rerun ${linkQuota}`, email: `rerun-${linkQuota}@example.org`, plan: 'business', linkQuota });
    const client = clientOf(account.apiKey);
    for (let row = 0; row < 6; row++) await client.createLink({ targetUrl: `https://example.org/sheet-row-${row}` });
    return account;
  }

  test('"Stop Before Creating Anything" counts only the rows from the first missing link on: 4 needed, 4 left, all made', async () => {
    const { apiKey, accountId } = await firstSixDone(10);
    const outcomes = await rerun(apiKey, 'stopBeforeCreating', []);
    expect(outcomes.map((o) => (o instanceof Error ? o.message : o.created))).toEqual([false, false, false, false, false, false, true, true, true, true]);
    expect(sandbox.links(accountId)).toHaveLength(10);
  });

  test('when even those do not fit, nothing is created and the message counts the rows that had a link', async () => {
    const { apiKey, accountId } = await firstSixDone(8);
    const sent: TransportRequest[] = [];
    const outcomes = await rerun(apiKey, 'stopBeforeCreating', sent);
    expect(outcomes.slice(0, 6).every((o) => !(o instanceof Error) && o.created === false)).toBe(true);
    expect(outcomes.slice(6).every((o) => o instanceof PlanQuotaError)).toBe(true);
    expect((outcomes[6] as Error).message).toBe(
      'This run creates up to 4 links (6 of its rows already had one); the plan has 2 left this month (6 of 8 used). Nothing was created. Run fewer rows, or choose "Create What Fits" under "When the Link Quota Runs Out".',
    );
    expect(posts(sent)).toBe(0);
    expect(sandbox.links(accountId)).toHaveLength(6);
  });
});
