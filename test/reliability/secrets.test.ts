/**
 * Secrets (issue 7, item 5): with a recognisable API key, every operation, every error path and the
 * triggers of both hosts run; their outputs, thrown errors (message, description, stack, cause and every
 * other property, deeply), n8n execution data and static data, and Zapier's logs are scanned: the key
 * appears nowhere. A service that echoes the key back in an error or a broken body is covered too.
 * Base URLs other than https are refused, except for loopback.
 */
import { createClient } from '@shortlink/core';
import { ONE_PAGE_FORMS, OPERATIONS, runOperation, type FormField, type FormValues } from '@shortlink/core/operations';
import { singleRowFields } from '@shortlink/core/host';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';
import { loadOptionsContext, locator, runNode, triggerHost, type SentRequest, type TestCredentials } from '../../packages/n8n-nodes-shortlink/test/harness';
import { pollBundle } from '../../packages/zapier/test/helpers';
import { ZapierRunner } from './support/drivers';
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from './support/scripted-server';
import { findSecret } from './support/secret-scan';
import { link } from '../../packages/core/test/helpers';
import { serverEnv, startStdio } from '../../packages/mcp/test/harness';
import { toolNameOf } from '../../packages/mcp/src/tools';

const KEY = 'sk_live_CANARY_5ecret_7f3a9b2c1d4e';
const WRONG_KEY = 'sk_live_CANARY_wrong_0a1b2c3d4e5f';

let sandbox: Sandbox;
let proKey: string;
let echo: ScriptedServer;
let closedPortUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ demoApiKey: KEY, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  proKey = sandbox.createAccount({ name: 'Pro', email: 'pro@example.com', plan: 'pro' }).apiKey;
  echo = await startScriptedServer();
  // A port that was open a moment ago and is closed now: connection refused.
  const gone = await startScriptedServer();
  closedPortUrl = gone.baseUrl;
  await gone.close();
});
afterAll(async () => {
  await echo.close();
  await sandbox.close();
});

/** Everything a run produced, for the scan. */
class Evidence {
  readonly items: unknown[] = [];
  add(label: string, value: unknown): void {
    this.items.push({ label, value });
  }
  async capture(label: string, run: () => Promise<unknown>): Promise<void> {
    try {
      this.add(label, await run());
    } catch (error) {
      this.add(`${label} (thrown)`, error);
    }
  }
  expectClean(...secrets: string[]): void {
    for (const secret of secrets) expect(findSecret(this.items, secret)).toEqual([]);
    // The scan found errors to scan: the error paths really ran.
    expect(this.items.some((item) => (item as { label: string }).label.endsWith('(thrown)'))).toBe(true);
  }
}

/** Answers of a service that echoes the caller's key back (a bad proxy, a debugging endpoint). */
const ECHOES: ScriptedAnswer[] = [
  { status: 401, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ title: 'Unauthorized', status: 401, detail: `The key ${KEY} is not valid (Authorization: Bearer ${KEY}).` }) },
  { status: 500, headers: { 'content-type': 'text/html' }, body: `<html><body>Internal error for Bearer ${KEY}</body></html>` },
  { status: 200, headers: { 'content-type': 'text/plain' }, body: `token=${KEY}` },
  { status: 422, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ title: 'Validation failed', status: 422, errors: [{ field: KEY, message: `bad ${KEY}` }] }) },
  // Successful answers that carry the key: records, lists and headers that reach every host's output.
  { status: 200, headers: { 'content-type': 'application/json', 'x-debug-authorization': `Bearer ${KEY}` }, body: JSON.stringify(echoedLink()) },
  { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: echoedLink() }) },
  { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: [echoedLink(), { ...echoedLink(), id: '1002', slug: 'k2' }], nextCursor: null }) },
];

/** A link as the service answers it, with the key echoed into its fields (and as a field name). */
function echoedLink(): Record<string, unknown> {
  return { ...link({ id: '1001', slug: 'echo', targetUrl: `https://example.org/page?token=${KEY}`, title: `Authorization: Bearer ${KEY}` }), [KEY]: 'echoed as a field name' };
}

// ---- n8n ----

function n8nOperations(existingId: string): IDataObject[] {
  return [
    { resource: 'link', operation: 'create', targetUrl: 'https://example.org/secret-test', additionalFields: { slug: 'canary-slug', title: 'Canary' } },
    { resource: 'link', operation: 'create', targetUrl: 'https://example.org/secret-test', additionalFields: { slug: 'canary-slug' } }, // 409
    { resource: 'link', operation: 'create', targetUrl: 'not a url' }, // input error
    { resource: 'link', operation: 'create', targetUrl: 'https://example.org/x', additionalFields: { slug: 'bad slug!' } }, // 422
    { resource: 'link', operation: 'get', link: locator('id', existingId) },
    { resource: 'link', operation: 'get', link: locator('id', '999999') }, // 404
    { resource: 'link', operation: 'get', link: locator('url', 'https://nowhere.example/x') },
    { resource: 'link', operation: 'getAll', returnAll: true },
    { resource: 'link', operation: 'update', link: locator('id', existingId), updateFields: { title: 'Canary 2' } },
    { resource: 'link', operation: 'update', link: locator('id', '999999'), updateFields: { title: 'x' } },
    { resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl: 'https://example.org/secret-test' },
    { resource: 'link', operation: 'findOrCreate', targetUrl: 'https://example.org/secret-test-2' },
    { resource: 'stats', operation: 'get', link: locator('id', existingId) },
    { resource: 'domain', operation: 'getAll' },
    { resource: 'account', operation: 'get' },
    { resource: 'link', operation: 'delete', link: locator('id', '999999') },
  ];
}

/**
 * Where every attempt fails with a retried error (a closed port, a 500), each read costs the core's
 * whole backoff on real timers; there one write, one read and the trigger stand for the rest.
 */
type Coverage = 'every operation' | 'retried failures';

async function runN8nEverything(evidence: Evidence, credentials: TestCredentials, existingId: string, coverage: Coverage = 'every operation'): Promise<void> {
  const operations = n8nOperations(existingId);
  if (coverage === 'retried failures') {
    const trigger = triggerHost(credentials);
    for (const parameters of [operations[0]!, operations[4]!]) {
      await evidence.capture(`n8n ${String(parameters.operation)}`, () => runNode({ credentials, parameters: parameters as never, continueOnFail: true }));
    }
    await evidence.capture('n8n trigger first poll', () => trigger.poll());
    return;
  }
  for (const parameters of operations) {
    const label = `n8n ${String(parameters.resource)} ${String(parameters.operation)}`;
    // Stopped on error (the error n8n shows) and continue-on-fail (the execution data n8n stores).
    await evidence.capture(label, () => runNode({ credentials, parameters: parameters as never }));
    await evidence.capture(`${label} continueOnFail`, () => runNode({ credentials, parameters: parameters as never, continueOnFail: true, items: [{}, {}] }));
  }
  const trigger = triggerHost(credentials);
  await evidence.capture('n8n trigger first poll', () => trigger.poll());
  await createdThroughCore(credentials);
  await evidence.capture('n8n trigger poll', () => trigger.poll());
  await evidence.capture('n8n trigger manual', () => trigger.poll('manual'));
  evidence.add('n8n trigger static data', trigger.staticData);
  const { methods, context } = loadOptionsContext(credentials);
  for (const [name, method] of Object.entries(methods as Record<string, (this: unknown, filter?: string) => Promise<unknown>>)) {
    await evidence.capture(`n8n listSearch ${name}`, () => method.call(context, ''));
  }
}

async function createdThroughCore(credentials: TestCredentials): Promise<string> {
  if (credentials.baseUrl !== sandbox.baseUrl || credentials.apiKey !== KEY) return '1';
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: KEY });
  return (await client.createLink({ targetUrl: `https://example.org/canary/${Math.random()}` })).id;
}

describe('n8n: the key appears in no output, error or execution data', () => {
  test('every operation, the trigger and the list searches with the valid key', async () => {
    const evidence = new Evidence();
    const credentials = { apiKey: KEY, baseUrl: sandbox.baseUrl };
    const sent: SentRequest[] = [];
    await runNode({ credentials, sent, parameters: { resource: 'account', operation: 'get' } as never });
    // The key did go out, in the Authorization header n8n adds: the scan below is not vacuous.
    expect(JSON.stringify(sent)).toContain(KEY);
    await runN8nEverything(evidence, credentials, await createdThroughCore(credentials));
    evidence.expectClean(KEY);
  }, 60_000);

  test.each([
    ['a wrong key (401)', () => ({ apiKey: WRONG_KEY, baseUrl: sandbox.baseUrl }), () => [WRONG_KEY], 'every operation'],
    ['a key without API access (403)', () => ({ apiKey: proKey, baseUrl: sandbox.baseUrl }), () => [proKey], 'every operation'],
    ['a closed port (connection refused)', () => ({ apiKey: KEY, baseUrl: closedPortUrl }), () => [KEY], 'retried failures'],
  ] as const)('error paths with %s', async (_label, credentials, secrets, coverage) => {
    const evidence = new Evidence();
    await runN8nEverything(evidence, credentials(), '1', coverage);
    evidence.expectClean(...secrets());
  }, 30_000);

  test.each(ECHOES.map((answer) => [answer.status, answer] as const))('a service echoing the key (%s)', async (status, answer) => {
    echo.answer = answer;
    const evidence = new Evidence();
    await runN8nEverything(evidence, { apiKey: KEY, baseUrl: echo.baseUrl }, '1', status >= 500 ? 'retried failures' : 'every operation');
    evidence.expectClean(KEY);
  }, 120_000);

  test('a Retry-After beyond the wait cap (429)', async () => {
    const tight = await startSandbox({ demoApiKey: KEY, rateLimit: { limit: 1, windowSeconds: 600 } });
    try {
      const evidence = new Evidence();
      const credentials = { apiKey: KEY, baseUrl: tight.baseUrl };
      await evidence.capture('first', () => runNode({ credentials, parameters: { resource: 'account', operation: 'get' } as never }));
      await evidence.capture('limited', () => runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('id', '1') } as never }));
      evidence.expectClean(KEY);
      expect(JSON.stringify(evidence.items.map((item) => String((item as { value: unknown }).value)))).toMatch(/rate|too many|retry/i);
    } finally {
      await tight.close();
    }
  });
});

// ---- Zapier ----

function zapierOperations(existingId: string): Array<[string, IDataObject]> {
  return [
    ['creates.create_link.operation.perform', { targetUrl: 'https://example.org/zap-secret', slug: 'zap-canary', utmSource: 'news' }],
    ['creates.create_link.operation.perform', { targetUrl: 'https://example.org/zap-secret', slug: 'zap-canary' }], // 409
    ['creates.create_link.operation.perform', { targetUrl: 'javascript:alert(1)' }], // input error
    ['creates.create_link.operation.perform', { targetUrl: 'https://example.org/x', slug: 'bad slug!' }], // 422
    ['creates.update_link.operation.perform', { link: existingId, title: 'Zap canary' }],
    ['creates.update_link.operation.perform', { link: '999999', title: 'x' }],
    ['searches.get_link.operation.perform', { link: existingId }],
    ['searches.find_link.operation.perform', { targetUrl: 'https://example.org/zap-secret' }],
    ['searches.link_stats.operation.perform', { link: existingId }],
    ['searches.link_stats.operation.perform', { link: '999999' }],
    ['searches.find_links.operation.perform', { targetUrl: 'https://example.org/zap-secret' }],
    ['creates.find_or_create_link.operation.perform', { targetUrl: 'https://example.org/zap-secret', utmSource: 'news' }],
    ['creates.update_link.operation.inputFields.0.choices.perform', {}],
    ['triggers.domain_list.operation.perform', {}],
    ['authentication.test', {}],
    ['creates.delete_link.operation.perform', { link: '999999' }],
  ];
}

async function runZapierEverything(
  evidence: Evidence,
  authData: { apiKey: string; baseUrl: string },
  existingId: string,
  coverage: Coverage = 'every operation',
): Promise<void> {
  const zapier = new ZapierRunner();
  if (coverage === 'retried failures') {
    for (const [method, inputData] of [zapierOperations(existingId)[0]!, zapierOperations(existingId)[6]!]) {
      await evidence.capture(`zapier ${method}`, () => zapier.invoke(method, { authData, inputData }));
    }
    const poll = pollBundle(authData.baseUrl, authData.apiKey, 'zap-secret');
    await evidence.capture('zapier new_link first poll', () => zapier.invoke('triggers.new_link.operation.perform', poll));
    return;
  }
  for (const [method, inputData] of zapierOperations(existingId)) {
    await evidence.capture(`zapier ${method}`, () => zapier.invoke(method, { authData, inputData }));
  }
  const bundle = pollBundle(authData.baseUrl, authData.apiKey, 'zap-secret');
  await evidence.capture('zapier new_link first poll', () => zapier.invoke('triggers.new_link.operation.perform', structuredClone(bundle)));
  await createdThroughCore(authData);
  await evidence.capture('zapier new_link poll', () => zapier.invoke('triggers.new_link.operation.perform', structuredClone(bundle)));
  await evidence.capture('zapier new_link sample', () =>
    zapier.invoke('triggers.new_link.operation.perform', { ...structuredClone(bundle), meta: { isLoadingSample: true } }),
  );
  evidence.add('zapier z.cache', zapier.cache);
}

/** Zapier's own logging, printed to stdout in tests (LOG_TO_STDOUT / DETAILED_LOG_TO_STDOUT), captured. */
async function withZapierLogs(evidence: Evidence, run: () => Promise<void>): Promise<void> {
  const lines: unknown[] = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args));
  process.env.LOG_TO_STDOUT = 'true';
  process.env.DETAILED_LOG_TO_STDOUT = 'true';
  try {
    await run();
  } finally {
    delete process.env.LOG_TO_STDOUT;
    delete process.env.DETAILED_LOG_TO_STDOUT;
    spy.mockRestore();
  }
  expect(lines.length).toBeGreaterThan(0); // Zapier did log (the HTTP calls at least)
  evidence.add('zapier logs', lines);
}

describe('Zapier: the key appears in no output, error or log', () => {
  test('every operation and the trigger with the valid key', async () => {
    const evidence = new Evidence();
    const authData = { apiKey: KEY, baseUrl: sandbox.baseUrl };
    await withZapierLogs(evidence, () => runZapierEverything(evidence, authData, '1001'));
    evidence.expectClean(KEY);
  }, 60_000);

  test.each([
    ['a wrong key (401)', () => ({ apiKey: WRONG_KEY, baseUrl: sandbox.baseUrl }), () => [WRONG_KEY], 'every operation'],
    ['a key without API access (403)', () => ({ apiKey: proKey, baseUrl: sandbox.baseUrl }), () => [proKey], 'every operation'],
    ['a closed port (connection refused)', () => ({ apiKey: KEY, baseUrl: closedPortUrl }), () => [KEY], 'retried failures'],
  ] as const)('error paths with %s', async (_label, authData, secrets, coverage) => {
    const evidence = new Evidence();
    await withZapierLogs(evidence, () => runZapierEverything(evidence, authData(), '1', coverage));
    evidence.expectClean(...secrets());
  }, 30_000);

  test.each(ECHOES.map((answer) => [answer.status, answer] as const))('a service echoing the key (%s)', async (status, answer) => {
    echo.answer = answer;
    const evidence = new Evidence();
    await withZapierLogs(evidence, () =>
      runZapierEverything(evidence, { apiKey: KEY, baseUrl: echo.baseUrl }, '1', status >= 500 ? 'retried failures' : 'every operation'),
    );
    evidence.expectClean(KEY);
  }, 120_000);
});

// ---- the core and MCP ----

/** A value each required field takes, by its kind: enough for every operation to send its requests. */
function sampleValues(fields: readonly FormField[]): FormValues {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (!field.required && field.key !== 'campaign') continue;
    values[field.key] =
      field.kind === 'url' ? 'https://example.org/echo' : field.kind === 'link' || field.kind === 'list' ? '1001' : field.kind === 'date' ? '2026-11-01' : field.kind === 'choice' ? field.default ?? field.choices?.[0]?.value : 'spring';
  }
  return values;
}

describe('the core: records, notices and errors of every operation come out without the key', () => {
  test.each(ECHOES.map((answer) => [answer.status, answer] as const))('a service echoing the key (%s)', async (status, answer) => {
    echo.answer = answer;
    const evidence = new Evidence();
    const client = createClient({ baseUrl: echo.baseUrl, apiKey: KEY, ...(status >= 500 ? { maxRetries: 0 } : {}) });
    for (const operation of OPERATIONS) {
      await evidence.capture(`core ${operation.key}`, () => runOperation(operation, client, sampleValues(operation.fields), { runSize: 1 }));
    }
    evidence.expectClean(KEY);
    // The key did reach the operations' answers: the scan is not vacuous.
    expect(echo.received.length).toBeGreaterThan(0);
  }, 120_000);

  test("what the service echoes is cleaned; the user's own words stay", async () => {
    echo.answer = ECHOES[4]!;
    const client = createClient({ baseUrl: echo.baseUrl, apiKey: KEY });
    const got = await client.getLink('1001');
    expect(got.title).toBe('Authorization: Bearer [redacted]');
    expect(got.targetUrl).toBe('https://example.org/page?token=[redacted]');
  });
});

describe('MCP: tool results, errors and log lines hold no key', () => {
  test.each(ECHOES.map((answer) => [answer.status, answer] as const))('a service echoing the key (%s)', async (status, answer) => {
    echo.answer = answer;
    const evidence = new Evidence();
    const mcp = await startStdio(serverEnv(echo.baseUrl, KEY), ['--no-check']);
    try {
      for (const listed of status >= 500 ? OPERATIONS.slice(0, 1) : OPERATIONS) {
        const operation = ONE_PAGE_FORMS[listed.key] ?? listed;
        await evidence.capture(`mcp ${toolNameOf(operation)}`, () => mcp.call(toolNameOf(operation), sampleValues(singleRowFields(operation.fields)) as Record<string, unknown>));
      }
    } finally {
      await mcp.close();
    }
    evidence.add('mcp stderr', mcp.stderr());
    for (const secret of [KEY]) expect(findSecret(evidence.items, secret)).toEqual([]);
    // Errors came back as results (isError), and the echo did reach the server.
    expect(JSON.stringify(evidence.items)).toMatch(/"isError":true|\[redacted\]/);
  }, 90_000);
});

// ---- base URLs ----

describe('base URLs: https only, plain http only on loopback', () => {
  const refused = [
    'http://short.example.com',
    'http://127.0.0.1.nip.io',
    'http://localhost.example.com',
    'http://127.0.0.1@short.example.com',
    'http://short.example.com#@127.0.0.1',
    'HTTP://SHORT.EXAMPLE.COM',
    'ftp://short.example.com',
    'javascript:alert(1)',
    'short.example.com',
    'https://user:pass@short.example.com',
  ];
  const accepted = ['https://short.example.com', 'https://short.example.com/', 'http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787', 'http://api.localhost:8787'];

  test.each(refused)('the core refuses %s before any request', (baseUrl) => {
    const transport = jest.fn();
    expect(() => createClient({ baseUrl, apiKey: KEY, transport })).toThrow(expect.objectContaining({ kind: 'input', field: 'baseUrl' }));
    expect(transport).not.toHaveBeenCalled();
  });

  test.each(accepted)('the core accepts %s', (baseUrl) => {
    expect(() => createClient({ baseUrl, apiKey: KEY, transport: jest.fn() })).not.toThrow();
  });

  test.each(refused)('n8n refuses %s, names the base URL and sends nothing', async (baseUrl) => {
    const sent: SentRequest[] = [];
    const error = (await runNode({ credentials: { apiKey: KEY, baseUrl }, sent, parameters: { resource: 'account', operation: 'get' } as never }).catch((e: unknown) => e)) as Error & {
      description?: string;
    };
    expect(error).toBeInstanceOf(Error);
    expect(`${error.message} ${error.description ?? ''}`).toMatch(/base ?url/i);
    expect(sent).toEqual([]);
    expect(findSecret(error, KEY)).toEqual([]);
  });

  // router.ts converts the core's InputError from creating the client into a NodeOperationError.
  test('n8n reports a refused base URL as a node error', async () => {
    const error = await runNode({ credentials: { apiKey: KEY, baseUrl: refused[0]! }, parameters: { resource: 'account', operation: 'get' } as never }).catch((e: unknown) => e);
    expect((error as Error).constructor.name).toMatch(/^Node(Operation|Api)Error$/);
  });

  test.each(refused)('Zapier refuses %s and names the base URL', async (baseUrl) => {
    const zapier = new ZapierRunner();
    const error = (await zapier.invoke('authentication.test', { authData: { apiKey: KEY, baseUrl }, inputData: {} }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/base ?url/i);
    expect(error.message).not.toMatch(/Network error/); // refused before any connection was tried
    expect(findSecret(error, KEY)).toEqual([]);
  });
});
