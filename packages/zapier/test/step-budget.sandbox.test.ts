/**
 * Zapier's real limit: a step has 30 s, then Zapier kills it as a timeout (no retry, counted towards turning
 * the Zap off). Here every kind of step runs against a slow, rate-limited sandbox: 400 ms added to every
 * answer, one request per 13 s per key, each step starting on a spent window, on accounts of 10 000 links.
 * A step needs up to three requests (a read and a write, a scan of pages), so with one client call per
 * budget it would wait twice and run past 25 s; with the step's one budget (src/stepBudget.ts) each ends
 * inside it: done, or ThrottledError with the delay for Zapier to retry. The longest step is printed.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { STEP_TIME_BUDGET_MS } from '../src/stepBudget';
import { authData, newAppTester, run } from './helpers';

const WINDOW_SECONDS = 13;
const LATENCY_MS = 400;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1, windowSeconds: WINDOW_SECONDS }, faults: { latencyMs: LATENCY_MS } });
});
afterAll(async () => {
  await sandbox.close();
});

/** A business account of its own (the limit is per key) with `links` links, its window spent. */
async function spentAccount(name: string, links: number): Promise<{ apiKey: string; linkId: string }> {
  const { accountId, apiKey } = sandbox.createAccount({ name, email: `${name}@example.com`, plan: 'business' });
  const [first] = sandbox.seedLinks(accountId, links, { label: name });
  for (let sent = 0; sent < 5; sent++) {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
    if (response.status === 429) return { apiKey, linkId: first!.id };
  }
  throw new Error('the window was not spent');
}

type Outcome = { step: string; seconds: number; outcome: string; delay?: number };

async function timed(step: string, perform: () => Promise<unknown>): Promise<Outcome> {
  const started = Date.now();
  try {
    await perform();
    return { step, seconds: (Date.now() - started) / 1000, outcome: 'done' };
  } catch (error) {
    const { name, message } = error as Error;
    // Zapier's ThrottledError carries its delay inside the JSON of its message.
    let delay: number | undefined;
    try {
      delay = (JSON.parse(message) as { delay?: number }).delay;
    } catch {
      delay = undefined;
    }
    return { step, seconds: (Date.now() - started) / 1000, outcome: name, delay };
  }
}

it('every step ends inside its time budget on a slow, rate-limited service: done, or ThrottledError with the delay', async () => {
  const appTester = newAppTester();
  const steps: Array<[string, number, (auth: ReturnType<typeof authData>, linkId: string) => Promise<unknown>]> = [
    ['Find Link by Target URL (scans the account)', 10_000, (auth) => run(appTester, 'searches.find_link', { authData: auth, inputData: { targetUrl: 'https://example.org/nowhere' } })],
    ['Update Link, UTM on the current URL (read + write)', 200, (auth, id) => run(appTester, 'creates.update_link', { authData: auth, inputData: { link: id, utmSource: 'zapier' } })],
    ['Delete Link (read + delete)', 200, (auth, id) => run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: id } })],
    ['Find Link Statistics (link + statistics)', 200, (auth, id) => run(appTester, 'searches.link_stats', { authData: auth, inputData: { link: id } })],
    ['New Link, first poll (account + pages)', 10_000, (auth) => run(appTester, 'triggers.new_link', { authData: auth, inputData: {}, meta: { zap: { id: 'budget-zap' } } })],
    ['Create Link', 200, (auth) => run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org/budget' } })],
    ['Connection test', 200, (auth) => run(appTester, 'authentication.test', { authData: auth })],
  ];
  // One account (one key, one rate limit) per step, so the steps run side by side and the test takes one window.
  const outcomes = await Promise.all(
    steps.map(async ([step, links, perform], index) => {
      const { apiKey, linkId } = await spentAccount(`budget${index}`, links);
      return timed(step, () => perform(authData(sandbox.baseUrl, apiKey), linkId));
    }),
  );
  const longest = Math.max(...outcomes.map((outcome) => outcome.seconds));
  console.log(
    [
      `Steps against a sandbox with ${LATENCY_MS} ms latency and 1 request per ${WINDOW_SECONDS} s, each starting on a spent window (budget ${STEP_TIME_BUDGET_MS / 1000} s a step, Zapier's limit 30 s):`,
      ...outcomes.map((o) => `  ${o.seconds.toFixed(1).padStart(5)} s  ${o.outcome}${o.delay === undefined ? '' : ` (retry in ${o.delay} s)`}  ${o.step}`),
      `  longest step: ${longest.toFixed(1)} s`,
    ].join('\n'),
  );
  // Inside the budget (a request is cut at the deadline; a second for the step's own work around it).
  expect(longest).toBeLessThan(STEP_TIME_BUDGET_MS / 1000 + 1);
  for (const outcome of outcomes) {
    expect(['done', 'ThrottledError']).toContain(outcome.outcome);
    if (outcome.outcome === 'ThrottledError') expect(outcome.delay).toBeGreaterThanOrEqual(1);
  }
  // The slow service did bite: the steps that need a second window were handed back to Zapier to retry.
  expect(outcomes.filter((o) => o.outcome === 'ThrottledError').map((o) => o.step)).toEqual(
    expect.arrayContaining(['Find Link by Target URL (scans the account)', 'Update Link, UTM on the current URL (read + write)']),
  );
}, 120_000);
