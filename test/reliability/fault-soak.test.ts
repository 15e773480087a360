/**
 * Fault soak: creates, updates and deletes through the core, the n8n node and the Zapier app while the
 * sandbox answers a share of requests with 500/502/503, resets connections before processing, loses the
 * answer after processing (reset, a 502 or a cut-off body after the write), adds latency and throws in 429
 * storms with Retry-After. Then the sandbox's own state is reconciled with what each caller was told:
 * 0 lost, 0 duplicated, 0 creates reported as failed although they were stored.
 *
 * Bounded for `npm test` (a few dozen operations per host, fixed seeds); `npm run soak` runs the same
 * with SOAK_SCALE=10 and fresh seeds. Ends with the line
 * `soak: attempted=N succeeded=N failed=N lost=N duplicated=N wrongly-failed=N`.
 */
import { createAxiosTransport, createClient, UnknownOutcomeError, type Transport } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { coreDriver, n8nDriver, standaloneCoreDriver, zapierDriver, type LinkDriver } from './support/drivers';
import { FakeClock } from './support/fake-clock';
import { DEFAULT_FAULTS, emptyCounts, runSoak, soakLine, type SoakCounts } from './support/soak';

const scale = Math.max(1, Number(process.env.SOAK_SCALE ?? '1') || 1);
const freshSeeds = process.env.SOAK_SCALE !== undefined;
const seedFor = (fixed: number): number => (freshSeeds ? Math.floor(Math.random() * 2 ** 31) : fixed);

const total: SoakCounts = emptyCounts();

function add(counts: SoakCounts): void {
  for (const key of Object.keys(total) as Array<keyof SoakCounts>) total[key] += counts[key];
}

/** Plain stdout, so the line reads the same under jest as in a terminal. */
function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function soakThrough(name: string, sandbox: Sandbox, driver: LinkDriver, creates: number, seed: number): Promise<void> {
  const report = await runSoak(driver, sandbox, sandbox.demoAccountId, { creates, tag: `${name}-${seed}`, faults: { ...DEFAULT_FAULTS, randomSeed: seed } });
  add(report.counts);
  const { unknownOutcome, recovered, deleteFailedButDone } = report.counts;
  const extra = `unknown-outcome=${unknownOutcome} recovered=${recovered} delete-failed-but-done=${deleteFailedButDone}`;
  print(`${soakLine(report.counts).replace('soak:', `soak ${name} (seed ${seed}):`)} ${extra}`);
  expect(report.problems).toEqual([]);
  expect(report.counts.lost).toBe(0);
  expect(report.counts.duplicated).toBe(0);
  expect(report.counts.wronglyFailed).toBe(0);
  // The faults really bit (a retry means more requests than operations; or an operation failed), and
  // most operations still went through.
  expect(report.requestsUnderFaults - report.counts.attempted + report.counts.failed).toBeGreaterThan(0);
  expect(report.counts.succeeded).toBeGreaterThan(report.counts.failed);
}

afterAll(() => {
  if (total.attempted > 0) print(soakLine(total));
});

describe('fault soak', () => {
  test('through the core (fake clock: Retry-After and backoff cost no real time)', async () => {
    const clock = new FakeClock();
    const sandbox = await startSandbox({ now: clock.now, rateLimit: { limit: 60, windowSeconds: 10 } });
    try {
      const driver = standaloneCoreDriver({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }, { sleep: clock.sleep, now: clock.now });
      await soakThrough('core', sandbox, driver, 120 * scale, seedFor(7));
    } finally {
      await sandbox.close();
    }
  });

  // The hosts sleep on real timers: a one-second window keeps each Retry-After at one second.
  test('through the n8n node (one bulk run per operation, continue on fail)', async () => {
    const sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 1 } });
    try {
      await soakThrough('n8n', sandbox, n8nDriver({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }), 24 * scale, seedFor(11));
    } finally {
      await sandbox.close();
    }
  }, 60_000 * scale);

  test('through the Zapier app (one invocation per action, four at a time)', async () => {
    const sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 1 } });
    try {
      await soakThrough('zapier', sandbox, zapierDriver({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }), 24 * scale, seedFor(13));
    } finally {
      await sandbox.close();
    }
  }, 60_000 * scale);
});

/**
 * The reconciliation itself must be able to fail: a client that repeats a POST after a reset, or one
 * that reports a failed delete as done, is caught.
 */
describe('the soak catches broken clients', () => {
  let sandbox: Sandbox;
  let clock: FakeClock;
  beforeEach(async () => {
    clock = new FakeClock();
    sandbox = await startSandbox({ now: clock.now, rateLimit: { limit: 10_000, windowSeconds: 10 } });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  test('a transport that repeats every request after a reset creates duplicates', async () => {
    const axiosTransport = createAxiosTransport({ apiKey: sandbox.apiKey });
    const blindRetry: Transport = async (request) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await axiosTransport(request);
        } catch (error) {
          if (attempt >= 4) throw error;
        }
      }
    };
    const client = createClient({ baseUrl: sandbox.baseUrl, transport: blindRetry, sleep: clock.sleep, now: clock.now });
    const report = await runSoak(coreDriver(client), sandbox, sandbox.demoAccountId, {
      creates: 30,
      tag: 'blind-retry',
      faults: { resetAfterRate: 0.3, randomSeed: 3 },
    });
    expect(report.counts.duplicated).toBeGreaterThan(0);
  });

  test('a driver that reports some stored creates as failed is caught as wrongly failed', async () => {
    const honest = standaloneCoreDriver({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }, { sleep: clock.sleep, now: clock.now });
    const gloomy: LinkDriver = {
      ...honest,
      createLinks: async (inputs) =>
        (await honest.createLinks(inputs)).map((outcome, i) => (i % 5 === 0 ? { ok: false as const, message: 'Server error (502 Bad Gateway).', error: undefined } : outcome)),
    };
    const report = await runSoak(gloomy, sandbox, sandbox.demoAccountId, { creates: 30, tag: 'gloomy', faults: {} });
    expect(report.counts.wronglyFailed).toBe(6);
    expect(report.problems.join('\n')).toMatch(/wrongly failed: create 0 was reported as failed/);
  });

  test('a driver that reports failed deletes as done loses them', async () => {
    const honest = coreDriver(createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: clock.sleep, now: clock.now, maxRetries: 0 }));
    const optimistic: LinkDriver = {
      ...honest,
      deleteLinks: async (ids) => (await honest.deleteLinks(ids)).map(() => ({ ok: true, value: undefined })),
    };
    const report = await runSoak(optimistic, sandbox, sandbox.demoAccountId, {
      creates: 60,
      tag: 'optimistic',
      faults: { errorRate: 0.3, randomSeed: 5 },
    });
    expect(report.counts.lost).toBeGreaterThan(0);
    expect(report.problems.join('\n')).toMatch(/delete of \d+ reported done but the link still exists/);
  });
});

/**
 * A create whose answer is lost after the service stored it, while the account cannot be asked either (every
 * request's connection drops after processing): the core cannot know, so it says so — the link may have
 * been created, look it up by its target URL — instead of "failed" or a second POST. The link is there.
 */
describe('a create whose outcome cannot be learned', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 10 } });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  test('is reported as an unknown outcome with the way to check, sent once, and findLinks finds the link', async () => {
    const targetUrl = 'https://example.org/unknown-outcome';
    const before = sandbox.requests.length;
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sleep: async () => undefined });
    sandbox.setFaults({ resetAfterRate: 1 });
    const error = await client.createLink({ targetUrl }).then(() => undefined, (e: unknown) => e);
    sandbox.setFaults(undefined);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((error as Error).message).toMatch(/The link may have been created, and looking for it failed .*Look it up by its target URL \(Find\)/);
    expect(sandbox.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
    const found = await createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }).findLinks({ targetUrl });
    expect(found.map((link) => link.targetUrl)).toEqual([targetUrl]);
  });
});
