/**
 * Find or Create Many for agents (issue 37) through the SDK's client over stdio, against the sandbox:
 * `link_find_or_create_many` previews 300 rows and submits them with the review token, each call with a
 * progress token (notifications/progress up to 300 of 300), at most 500 rows a call, with the team's UTM
 * presets from the server's config.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { recordsOf, serverEnv, startStdio, summaryOf, textOf, type McpSession } from './harness';

jest.setTimeout(120_000);

let sandbox: Sandbox;
let mcp: McpSession;
let accountId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  const account = sandbox.createAccount({ name: 'MCP sheet', email: 'mcp-sheet@example.org', plan: 'business' });
  accountId = account.accountId;
  mcp = await startStdio(serverEnv(sandbox.baseUrl, account.apiKey, { SHORTLINK_UTM_PRESETS: 'Newsletter: source=newsletter, medium=email' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

test('the tool takes at most 500 rows, each a record of the sheet\'s columns', async () => {
  const { tools } = await mcp.client.listTools();
  const tool = tools.find((candidate) => candidate.name === 'link_find_or_create_many')!;
  expect(tool.inputSchema.properties!.rows).toMatchObject({ type: 'array', maxItems: 500, items: { type: 'object', required: ['targetUrl'] } });
  const tooMany = await mcp.call('link_find_or_create_many', { mode: 'preview', rows: Array.from({ length: 501 }, (_, i) => ({ targetUrl: `https://example.org/${i}` })) });
  expect(tooMany.isError).toBe(true);
  expect(textOf(tooMany)).toContain('"Rows" takes at most 500 rows at a time; got 501.');
});

test('300 rows: the preview writes nothing, the submit with its token creates exactly what it said, a second submit nothing', async () => {
  // 150 links, each asked for twice: with the preset from the config, and spelt out with other capitals.
  const rows = Array.from({ length: 300 }, (_, i) =>
    i % 2 === 0 ? { targetUrl: `https://example.org/agent/${i >> 1}`, utmPreset: 'Newsletter' } : { targetUrl: `https://example.org/agent/${i >> 1}`, utmSource: 'NewsLetter', utmMedium: 'EMAIL' },
  );
  /** A call with a progress token: the result and the progress heard, which must climb to the total. */
  const withProgress = async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const heard: Progress[] = [];
    const result = (await mcp.client.callTool({ name: 'link_find_or_create_many', arguments: args }, undefined, { onprogress: (progress) => heard.push(progress) })) as CallToolResult;
    const counts = heard.map((progress) => progress.progress);
    expect(counts.length).toBeGreaterThanOrEqual(1);
    expect(counts).toEqual([...new Set(counts)].sort((a, b) => a - b));
    expect(heard[heard.length - 1]).toMatchObject({ progress: 300, total: 300 });
    return result;
  };
  const preview = await withProgress({ mode: 'preview', rows });
  expect(preview.isError).toBeFalsy();
  const summary = summaryOf(preview)!;
  expect(summary).toMatchObject({ mode: 'preview', rows: 300, willCreate: 150, duplicates: 150, willFail: 0 });
  expect(recordsOf(preview)).toHaveLength(300);
  expect(sandbox.links(accountId)).toHaveLength(0);

  const submitted = await withProgress({ mode: 'submit', rows, reviewToken: summary.reviewToken });
  expect(submitted.isError).toBeFalsy();
  expect(summaryOf(submitted)).toMatchObject({ mode: 'submit', created: 150, duplicates: 150, complete: true });
  const links = sandbox.links(accountId);
  expect(links).toHaveLength(150);
  expect(links.every((link) => link.targetUrl.endsWith('?utm_source=newsletter&utm_medium=email'))).toBe(true);

  const again = await mcp.call('link_find_or_create_many', { mode: 'submit', rows, reviewToken: summary.reviewToken });
  expect(recordsOf(again).map((record) => record.linkId)).toEqual(recordsOf(submitted).map((record) => record.linkId));
  expect(sandbox.links(accountId)).toHaveLength(150);
});
