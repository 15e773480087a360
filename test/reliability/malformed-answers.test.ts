/**
 * Malformed answers (issue 7, item 4): a loopback server answers with HTML, empty bodies, broken JSON,
 * the wrong content type, JSON of the wrong shape, no rate-limit headers or a 5 MB body. Every
 * operation of the core, the n8n node and the Zapier app ends in a clear error (or, where the body is
 * not needed or still readable, in success); nothing crashes with a TypeError, nothing hangs.
 */
import { createClient, ShortLinkError, type ShortLinkClient } from '@shortlink/core';
import type { IDataObject } from 'n8n-workflow';
import { locator, runNode, triggerHost } from '../../packages/n8n-nodes-shortlink/test/harness';
import { pollBundle } from '../../packages/zapier/test/helpers';
import { ZapierRunner } from './support/drivers';
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from './support/scripted-server';

const KEY = 'sk_test_malformed_0123456789';
const HTML = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
const JSON_TYPE = { 'content-type': 'application/json' };
const LINK = {
  id: '1042',
  slug: 'spring',
  shortUrl: 'https://sho.rt/spring',
  targetUrl: 'https://example.org/spring',
  title: 'Spring',
  domain: null,
  active: true,
  blocked: false,
  hasPassword: false,
  clicks: 0,
  expiresAt: null,
  createdAt: '2026-03-01T09:30:00.000Z',
};
const STATE = { version: 1, mark: { createdAt: '2026-03-01T09:30:00.000Z', ids: ['1042'] } };

interface Scenario {
  name: string;
  answer: ScriptedAnswer;
  /** What the error must say (the core's wording, passed on by both hosts). */
  says: RegExp;
}

const twoHundred: Scenario[] = [
  { name: 'an HTML page', answer: { status: 200, headers: { 'content-type': 'text/html' }, body: HTML }, says: /HTML/ },
  { name: 'an empty body', answer: { status: 200, headers: JSON_TYPE, body: '' }, says: /empty/i },
  { name: 'broken JSON', answer: { status: 200, headers: JSON_TYPE, body: '{"id": "1042", "slug":' }, says: /broken JSON/i },
  { name: 'plain text', answer: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' }, says: /text instead of JSON/i },
  { name: 'a JSON array', answer: { status: 200, headers: JSON_TYPE, body: '[1,2,3]' }, says: /array|list|lacks/i },
  { name: 'JSON null', answer: { status: 200, headers: JSON_TYPE, body: 'null' }, says: /empty|null|object|lacks/i },
  { name: 'a 5 MB HTML page', answer: { status: 200, headers: { 'content-type': 'text/html' }, body: HTML.repeat(Math.ceil(5_000_000 / HTML.length)) }, says: /HTML/ },
];
const errorStatuses: Scenario[] = [
  { name: 'a 404 HTML page', answer: { status: 404, headers: { 'content-type': 'text/html' }, body: HTML }, says: /not found/i },
  { name: 'a plain-text 401', answer: { status: 401, headers: { 'content-type': 'text/plain' }, body: 'Unauthorized' }, says: /auth/i },
  { name: 'a 422 problem without fields', answer: { status: 422, headers: { 'content-type': 'application/problem+json' }, body: '{}' }, says: /validation/i },
  { name: 'a 500 HTML page', answer: { status: 500, headers: { 'content-type': 'text/html' }, body: HTML }, says: /server error.*HTML/i },
  { name: 'an empty 502', answer: { status: 502, body: '' }, says: /502|server error/i },
  { name: 'a 429 without Retry-After or RateLimit headers', answer: { status: 429, body: '' }, says: /rate limit|too many/i },
];

/** Not a crash: a short message of its own, no TypeError leaking out of the code. */
function expectClearError(error: unknown, says: RegExp): void {
  expect(error).toBeInstanceOf(Error);
  const e = error as Error & { description?: string };
  const text = `${e.message} ${e.description ?? ''}`;
  expect(text).not.toMatch(/TypeError|Cannot read propert|is not a function|undefined is not|Unexpected token|SyntaxError/);
  expect(text.length).toBeLessThan(1000);
  expect(text).toMatch(says);
}

/**
 * A list answer that is a bare JSON array of non-objects ([1,2,3]) is an UnexpectedResponseError that
 * says the list holds entries that are not objects (page-reader.ts), never three "links" or "nothing found".
 */
/** One test per row. */
function eachRow<Row extends [string, ...unknown[]]>(rows: Row[], title: string, body: (...row: Row) => Promise<void>, timeout?: number): void {
  test.each(rows as unknown[][])(title, body as (...args: unknown[]) => Promise<void>, timeout);
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

// ---- core: every operation, every scenario (no real sleeping: retries of 5xx and 429 are instant) ----

type CoreOp = [string, (client: ShortLinkClient) => Promise<unknown>, { bodyUnused?: boolean }];
const coreOps: CoreOp[] = [
  ['createLink', (c) => c.createLink({ targetUrl: 'https://example.org/x' }), {}],
  ['getLink', (c) => c.getLink('1042'), {}],
  ['listLinks', (c) => c.listLinks(), {}],
  ['iterateLinks', async (c) => { for await (const link of c.iterateLinks()) void link; }, {}],
  ['updateLink', (c) => c.updateLink('1042', { title: 'x' }), {}],
  ['deleteLink', (c) => c.deleteLink('1042'), { bodyUnused: true }],
  ['getLinkStats', (c) => c.getLinkStats('1042'), {}],
  ['listDomains', (c) => c.listDomains(), {}],
  ['getAccount', (c) => c.getAccount(), {}],
  ['findLinks', (c) => c.findLinks({ targetUrl: 'https://example.org/x' }), {}],
  ['findOrCreateLink', (c) => c.findOrCreateLink({ targetUrl: 'https://example.org/x' }), {}],
  ['pollNewLinks', (c) => c.pollNewLinks(STATE as never), {}],
];

describe('core', () => {
  const client = () => createClient({ baseUrl: server.baseUrl, apiKey: KEY, sleep: async () => undefined });

  describe.each([...twoHundred, ...errorStatuses])('answer: $name', ({ answer, says, name }) => {
    eachRow(coreOps, '%s gives a typed, clear error', async (_op, run, flags) => {
      server.answer = answer;
      const outcome = await run(client()).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (outcome === undefined) {
        // Only a 2xx whose body the operation does not need may pass.
        expect(flags.bodyUnused === true && answer.status < 300).toBe(true);
        return;
      }
      expect(outcome).toBeInstanceOf(ShortLinkError);
      expectClearError(outcome, name === 'JSON null' ? /./ : says);
    });
  });

  test('missing rate-limit headers and JSON labelled text/plain are read normally', async () => {
    server.answer = { status: 200, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(LINK) };
    await expect(client().getLink('1042')).resolves.toMatchObject({ id: '1042', slug: 'spring' });
    server.answer = { status: 200, body: JSON.stringify({ data: [LINK], nextCursor: null }) };
    await expect(client().listLinks()).resolves.toMatchObject({ links: [{ id: '1042' }], nextCursor: null });
  });
});

// ---- hosts: every operation on the 2xx scenarios; the retried statuses on one call each (real timers) ----

const credentials = () => ({ apiKey: KEY, baseUrl: server.baseUrl });

// Every row has its options object: jest would take a missing third argument for a `done` callback.
const n8nOps: Array<[string, IDataObject, { bodyUnused?: boolean }]> = [
  ['link create', { resource: 'link', operation: 'create', targetUrl: 'https://example.org/x' }, {}],
  ['link get', { resource: 'link', operation: 'get', link: locator('id', '1042') }, {}],
  ['link getAll', { resource: 'link', operation: 'getAll' }, {}],
  ['link update', { resource: 'link', operation: 'update', link: locator('id', '1042'), updateFields: { title: 'x' } }, {}],
  ['link delete', { resource: 'link', operation: 'delete', link: locator('id', '1042') }, { bodyUnused: true }],
  ['link find', { resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl: 'https://example.org/x' }, {}],
  ['stats get', { resource: 'stats', operation: 'get', link: locator('id', '1042') }, {}],
  ['domain getAll', { resource: 'domain', operation: 'getAll' }, {}],
  ['account get', { resource: 'account', operation: 'get' }, {}],
];

const zapierOps: Array<[string, IDataObject, { bodyUnused?: boolean; trigger?: boolean }]> = [
  ['creates.create_link.operation.perform', { targetUrl: 'https://example.org/x' }, {}],
  ['creates.update_link.operation.perform', { link: '1042', title: 'x' }, {}],
  ['creates.delete_link.operation.perform', { link: '1042' }, { bodyUnused: true }],
  ['searches.get_link.operation.perform', { link: '1042' }, {}],
  ['searches.find_links.operation.perform', { targetUrl: 'https://example.org/x' }, {}],
  ['searches.daily_clicks.operation.perform', { link: '1042' }, {}],
  ['searches.find_link.operation.perform', { targetUrl: 'https://example.org/x' }, {}],
  ['searches.link_stats.operation.perform', { link: '1042' }, {}],
  ['triggers.new_link.operation.perform', {}, { trigger: true }],
  ['creates.update_link.operation.inputFields.0.choices.perform', {}, {}],
  ['triggers.domain_list.operation.perform', {}, {}],
  ['authentication.test', {}, {}],
];

describe('n8n node', () => {
  describe.each(twoHundred)('answer: $name', ({ answer, says, name }) => {
    eachRow(n8nOps, '%s gives a clear node error', async (_op, parameters, flags) => {
      server.answer = answer;
      const outcome = await runNode({ credentials: credentials(), parameters: parameters as never }).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (outcome === undefined) {
        expect(flags.bodyUnused).toBe(true);
        return;
      }
      expect((outcome as Error).constructor.name).toMatch(/^Node(Api|Operation)Error$/);
      expectClearError(outcome, name === 'JSON null' ? /./ : says);
    });

    test('the trigger gives a clear node error', async () => {
      server.answer = answer;
      const host = triggerHost(credentials());
      host.staticData.newLink = structuredClone(STATE);
      const outcome = await host.poll().then(() => undefined, (error: unknown) => error);
      expect(outcome).toBeDefined();
      expectClearError(outcome, name === 'JSON null' ? /./ : says);
      // A failed poll leaves the saved state as it was: nothing is skipped.
      expect(host.staticData.newLink).toEqual(STATE);
    });
  });

  test.each(errorStatuses)('create on $name gives a clear node error', async ({ answer, says }) => {
    server.answer = answer;
    const outcome = await runNode({ credentials: credentials(), parameters: n8nOps[0]![1] as never }).then(() => undefined, (e: unknown) => e);
    expectClearError(outcome, says);
  }, 15_000);
});

describe('Zapier app', () => {
  const zapier = new ZapierRunner();
  const invoke = (method: string, inputData: IDataObject, trigger = false) =>
    zapier.invoke(method, trigger ? { ...pollBundle(server.baseUrl, KEY), inputData } : { authData: credentials(), inputData });

  describe.each(twoHundred)('answer: $name', ({ answer, says, name }) => {
    eachRow(zapierOps, '%s %j gives a clear error', async (method, inputData, flags) => {
      server.answer = answer;
      const outcome = await invoke(method, inputData, flags.trigger).then(() => undefined, (error: unknown) => error);
      if (outcome === undefined) {
        expect(flags.bodyUnused).toBe(true);
        return;
      }
      expectClearError(outcome, name === 'JSON null' ? /./ : says);
    });
  });

  test.each(errorStatuses)('create_link on $name gives a clear error', async ({ answer, says }) => {
    server.answer = answer;
    const outcome = await invoke('creates.create_link.operation.perform', { targetUrl: 'https://example.org/x' }).then(() => undefined, (e: unknown) => e);
    expectClearError(outcome, says);
  }, 15_000);
});
