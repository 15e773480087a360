/**
 * Pacing across steps (src/sharedPacing.ts): every Zapier step is its own invocation with its own client.
 * What the connection's steps learned of the rate limit goes from one to the next through z.cache, so a step
 * that starts on a spent window waits for its reset instead of sending blind into a 429. Against the
 * sandbox with a window of 3 requests per 2 s: four creates, one step each, in a row.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { forgetProcessShared } from '@shortlink/core/portable';
import { app, authData, newAppTester } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 3, windowSeconds: 2 } });
});
afterAll(async () => {
  await sandbox.close();
});

type Tester = (func: unknown, bundle: object, clearZcacheBeforeUse?: boolean) => Promise<unknown>;

/**
 * Four create steps on a fresh account, each as in a container of its own (nothing shared in the process:
 * a warm container's steps would pace as one anyway); `shared` false empties z.cache before each (every
 * step blind).
 */
async function fourCreates(label: string, shared: boolean) {
  const { apiKey } = sandbox.createAccount({ name: label, email: `${label}@example.com`, plan: 'business' });
  const appTester = newAppTester() as unknown as Tester & { zcacheTestObj: Record<string, unknown> };
  const mark = sandbox.requests.length;
  for (let step = 0; step < 4; step++) {
    const bundle = { authData: authData(sandbox.baseUrl, apiKey), inputData: { targetUrl: `https://example.org/${label}/${step}` } };
    forgetProcessShared();
    await appTester(app.creates.create_link.operation.perform, bundle, !shared);
  }
  const statuses = sandbox.requests.slice(mark).map((request) => request.status);
  return { statuses, cache: JSON.stringify(appTester.zcacheTestObj), apiKey };
}

it('a step on a spent window waits for the reset the earlier steps learned: no 429', async () => {
  const { statuses } = await fourCreates('shared', true);
  expect(statuses).toEqual([201, 201, 201, 201]);
});

it('without the shared state the fourth step sends blind and gets a 429 first (what the state saves)', async () => {
  const { statuses } = await fourCreates('blind', false);
  expect(statuses).toEqual([201, 201, 201, 429, 201]);
});

it('the stored state holds numbers only, never the API key', async () => {
  const { cache, apiKey } = await fourCreates('secret', true);
  expect(cache).toContain('pacing:v1:');
  expect(cache).toContain('remaining');
  expect(cache).not.toContain(apiKey);
});
