/** The sandbox's two kinds of 403 reach the caller as ForbiddenError with their reason. */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { ForbiddenError, createClient } from '@shortlink/core';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

test('a plan without API access → reason plan', async () => {
  const pro = sandbox.createAccount({ name: 'Pro Shop', email: 'pro@example.com', plan: 'pro' });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: pro.apiKey });
  const error = await client.getAccount().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ForbiddenError);
  expect(error).toMatchObject({ status: 403, reason: 'plan', type: expect.stringMatching(/#plan-required$/) });
});

test('a domain that is not verified → reason domain', async () => {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  const error = await client.createLink({ targetUrl: 'https://example.org/x', domain: 'not-mine.example.net' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ForbiddenError);
  expect(error).toMatchObject({ status: 403, reason: 'domain', type: expect.stringMatching(/#domain-forbidden$/) });
});
