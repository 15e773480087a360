/**
 * What an agent meets beyond a single call, through the SDK's client against the sandbox: progress on a
 * Campaign Report, a cancelled call that sends nothing more, a quota refusal remembered across HTTP
 * sessions, words written for agents (no workflow or host phrases), bounded echoes of huge inputs, an
 * oversized stdio message answered instead of a silent exit, and the prompts.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { CLI_SOURCE, connectHttp, recordsOf, serverEnv, startHttp, startStdio, textOf, type McpSession } from './harness';

jest.setTimeout(90_000);

const TSX = join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

const posts = (): number => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/links')).length;

describe.each([
  ['stdio', startStdio],
  ['Streamable HTTP', startHttp],
])('over %s', (transport, start) => {
  let mcp: McpSession;
  let accountId: string;
  beforeAll(async () => {
    const account = sandbox.createAccount({ name: `Agent ${transport}`, email: `agent-${transport.length}@example.org`, plan: 'business' });
    accountId = account.accountId;
    sandbox.seedLinks(accountId, 250);
    mcp = await start(serverEnv(sandbox.baseUrl, account.apiKey));
    for (const page of ['a', 'b', 'c']) {
      recordsOf(await mcp.call('link_create', { targetUrl: `https://example.org/${page}`, utmCampaign: 'progress_test' }));
    }
  });
  afterAll(async () => {
    await mcp?.close();
  });

  test("Campaign Report with a progress token sends increasing progress, counted against the report's requests", async () => {
    const heard: Progress[] = [];
    const result = (await mcp.client.callTool({ name: 'campaign_report', arguments: { selectBy: 'campaign', campaign: 'progress_test' } }, undefined, { onprogress: (progress) => heard.push(progress) })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(heard.length).toBeGreaterThanOrEqual(1);
    const counts = heard.map((progress) => progress.progress);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
    // 3 list pages (253 links) and one statistics request per link of the campaign: 6 requests in all.
    expect(heard[0]).toMatchObject({ progress: 1, message: 'Looked through 100 links of the account; 3 in the report so far.' });
    expect(heard.every((progress) => progress.total === undefined || progress.total === 6)).toBe(true);
  });

  test('without a progress token no progress is sent', async () => {
    const heard: unknown[] = [];
    mcp.client.fallbackNotificationHandler = async (notification) => void heard.push(notification);
    await mcp.call('campaign_report', { selectBy: 'campaign', campaign: 'progress_test' });
    expect(heard).toEqual([]);
  });

  test('a call cancelled before its create sends no create, and the server answers the next call', async () => {
    const big = sandbox.createAccount({ name: `Cancel ${transport}`, email: `cancel-${transport.length}@example.org`, plan: 'business' });
    sandbox.seedLinks(big.accountId, 3_000);
    const cancelling = await start(serverEnv(sandbox.baseUrl, big.apiKey), ['--no-check']);
    sandbox.setFaults({ latencyMs: 30 });
    try {
      const before = posts();
      const controller = new AbortController();
      const call = cancelling.client.callTool({ name: 'link_find_or_create', arguments: { targetUrl: 'https://example.org/never-made' } }, undefined, { signal: controller.signal });
      setTimeout(() => controller.abort('the user stopped the agent'), 300);
      await expect(call).rejects.toThrow();
      // Long enough for the whole walk (30 pages) and its create, had the call gone on.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(posts() - before).toBe(0);
      expect(sandbox.links(big.accountId).some((link) => link.targetUrl === 'https://example.org/never-made')).toBe(false);
      sandbox.setFaults(undefined);
      expect(recordsOf(await cancelling.call('account_get'))).toHaveLength(1);
    } finally {
      sandbox.setFaults(undefined);
      await cancelling.close();
    }
  });

  test('5 concurrent Find or Create calls for one URL leave one link, all told its id, one of them created', async () => {
    const url = `https://example.org/concurrent-${transport.length}`;
    const callers = transport === 'stdio' ? [mcp.client] : await Promise.all([1, 2, 3, 4, 5].map(() => connectHttp(mcp.url!)));
    const calls = [0, 1, 2, 3, 4].map((i) => callers[i % callers.length]!.callTool({ name: 'link_find_or_create', arguments: { targetUrl: url, utmSource: 'agents' } }));
    const records = (await Promise.all(calls)).map((result) => recordsOf(result as CallToolResult)[0]!);
    if (transport !== 'stdio') await Promise.all(callers.map((client) => client.close()));
    const stored = sandbox.links(accountId).filter((link) => link.targetUrl === `${url}?utm_source=agents`);
    expect(stored).toHaveLength(1);
    expect(new Set(records.map((record) => record.id))).toEqual(new Set([stored[0]!.id]));
    expect(records.filter((record) => record.created === true)).toHaveLength(1);
  });

  test('a 500 KB argument is quoted by its start and its length, never whole', async () => {
    const huge = `https://example.org/${'x'.repeat(500_000)}`;
    const quoted = /"https:\/\/example\.org\/x{60}…" \(500,020 characters\)/;
    for (const [name, args, said] of [
      ['link_get', { link: huge }, quoted],
      ['link_get', { link: huge.replace('https://', '') }, /"example\.org\/x+…" \(500,012 characters\)/],
      ['link_get_many', { pageSize: huge }, quoted],
      ['link_create', { targetUrl: 'https://example.org', [huge]: 1 }, /no field "https:\/\/example\.org\/x+…" \(500,020 characters\)/],
      ['stats_get', { link: '1', splitInto: huge }, quoted],
      // Sent: the service refuses it (422) without quoting it.
      ['link_create', { targetUrl: huge }, /Target URL must NOT have more than 2048 characters/],
    ] as const) {
      const result = await mcp.call(name, args);
      expect({ name, isError: result.isError }).toEqual({ name, isError: true });
      expect(JSON.stringify(result).length).toBeLessThan(3_000);
      expect(textOf(result)).toMatch(said);
    }
  });
});

test("a report larger than the server's time limit ends at the limit and says how to get it", async () => {
  const account = sandbox.createAccount({ name: 'Deadline', email: 'deadline@example.org', plan: 'business' });
  sandbox.seedLinks(account.accountId, 300);
  const mcp = await startStdio(serverEnv(sandbox.baseUrl, account.apiKey, { SHORTLINK_TOOL_TIMEOUT_SECONDS: '2' }), ['--no-check']);
  sandbox.setFaults({ latencyMs: 20 });
  try {
    const started = Date.now();
    const result = await mcp.call('campaign_report', { selectBy: 'all' });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/time limit of 2 s.*This server gives one call 2 s \(SHORTLINK_TOOL_TIMEOUT_SECONDS\): narrow the request/);
  } finally {
    sandbox.setFaults(undefined);
    await mcp.close();
  }
});

test('a report that cannot fit the time left at the service\'s rate is refused before its first statistics request', async () => {
  const paced = await startSandbox({ rateLimit: { limit: 120, windowSeconds: 60 } });
  const account = paced.createAccount({ name: 'Paced', email: 'paced@example.org', plan: 'business' });
  paced.seedLinks(account.accountId, 300);
  const mcp = await startStdio(serverEnv(paced.baseUrl, account.apiKey, { SHORTLINK_TOOL_TIMEOUT_SECONDS: '10' }), ['--no-check']);
  try {
    const result = await mcp.call('campaign_report', { selectBy: 'all' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/would cover 300 links.*more than the service takes in the \d+ s this call has left \(about \d+ links at its rate of 120 requests a minute\)\. Nothing more was sent\. Narrow it/);
    expect(paced.requests.filter((request) => request.path.endsWith('/stats'))).toEqual([]);
  } finally {
    await mcp.close();
    await paced.close();
  }
});

test('over HTTP a plan-quota refusal is remembered across sessions: 4 calls on a used-up plan send 2 creates', async () => {
  const small = sandbox.createAccount({ name: 'Quota HTTP', email: 'quota-http@example.org', plan: 'business', linkQuota: 1 });
  const mcp = await startHttp(serverEnv(sandbox.baseUrl, small.apiKey), ['--no-check']);
  try {
    const before = posts();
    const results: CallToolResult[] = [];
    for (let call = 1; call <= 4; call++) {
      // A new session each time, as n8n's MCP Client node opens one per execution.
      const client = await connectHttp(mcp.url!);
      results.push((await client.callTool({ name: 'link_create', arguments: { targetUrl: `https://example.org/quota-http-${call}` } })) as CallToolResult);
      await client.close();
    }
    expect(results.map((result) => result.isError === true)).toEqual([false, true, true, true]);
    expect(textOf(results[3]!)).toMatch(/this row was not sent/);
    expect(posts() - before).toBe(2);
  } finally {
    await mcp.close();
  }
});

describe('words for agents', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    const account = sandbox.createAccount({ name: 'Words', email: 'words@example.org', plan: 'business' });
    mcp = await startStdio(serverEnv(sandbox.baseUrl, account.apiKey));
  });
  afterAll(async () => {
    await mcp?.close();
  });

  const HOST_WORDS = /\bn8n\b|zapier|workflow|earlier step|\bmap (one|a|single)\b|binary data|\ba step\b|credential/i;

  test('tool titles, descriptions and input schemas speak of no workflow, host or widget', async () => {
    const { tools } = await mcp.client.listTools();
    const leaks: string[] = [];
    const scan = (where: string, value: unknown): void => {
      if (typeof value === 'string' && HOST_WORDS.test(value)) leaks.push(`${where}: ${value}`);
      else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) scan(`${where}.${key}`, inner);
    };
    for (const tool of tools) scan(tool.name, tool);
    expect(leaks).toEqual([]);
    expect(tools.map((tool) => tool.name)).toContain('campaign_report');
    expect(tools.find((tool) => tool.name === 'campaign_report')!.title).toBe('Campaign Report');
    expect(tools.every((tool) => /^[a-z]+(_[a-z]+)*$/.test(tool.name) && !/(^|_)(\w+)_\2(_|$)/.test(tool.name))).toBe(true);
  });

  test('a missing value is asked for in words for an agent', async () => {
    const result = await mcp.call('link_create', {});
    expect(textOf(result)).toMatch(/"Target URL" is required\. Pass a value for it\./);
    expect(textOf(result)).not.toMatch(HOST_WORDS);
  });

  test('the prompts name tools and fields that exist, and ask for what they need', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['shorten_campaign_links', 'weekly_campaign_report']);
    const { tools } = await mcp.client.listTools();
    const fields = new Map(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]));
    const sheet = await mcp.client.getPrompt({ name: 'shorten_campaign_links', arguments: { campaign: 'spring_sale', source: 'newsletter', urls: 'https://example.org/a\nhttps://example.org/b' } });
    const sheetText = (sheet.messages[0]!.content as { text: string }).text;
    expect(sheetText).toMatch(/call link_find_or_create with targetUrl .* utmCampaign "spring_sale", utmSource "newsletter"/);
    expect(sheetText).toContain('https://example.org/b');
    for (const field of ['targetUrl', 'utmCampaign', 'utmSource']) expect(fields.get('link_find_or_create')).toContain(field);
    const report = await mcp.client.getPrompt({ name: 'weekly_campaign_report', arguments: { campaign: 'spring_sale' } });
    expect((report.messages[0]!.content as { text: string }).text).toMatch(/Call campaign_report with selectBy "campaign", campaign "spring_sale" and shape "linkDay"/);
    for (const field of ['selectBy', 'campaign', 'shape', 'from', 'to']) expect(fields.get('campaign_report')).toContain(field);
    await expect(mcp.client.getPrompt({ name: 'weekly_campaign_report', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  test('malformed params are the JSON-RPC error -32602', async () => {
    await expect(mcp.client.request({ method: 'tools/call', params: { name: 42 } } as never, CallToolResultSchema)).rejects.toMatchObject({ code: -32602 });
  });
});

test('an oversized stdio message is answered with an error and said on stderr; the server serves on', async () => {
  const account = sandbox.createAccount({ name: 'Big message', email: 'big-message@example.org', plan: 'business' });
  const child = spawn(process.execPath, [TSX, CLI_SOURCE, '--no-check'], { env: serverEnv(sandbox.baseUrl, account.apiKey), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const answers = (): Array<{ id: unknown; error?: { code: number; message: string }; result?: { tools?: unknown[] } }> =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
  const waitFor = async (id: number): Promise<void> => {
    for (let i = 0; i < 200 && !answers().some((answer) => answer.id === id); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  try {
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await waitFor(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // 12 MiB, in the order the SDK's client writes a request (method and params first, the id last).
    send({ method: 'tools/call', params: { name: 'link_create', arguments: { targetUrl: `https://example.org/${'y'.repeat(12 * 1024 * 1024)}` } }, jsonrpc: '2.0', id: 2 });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    await waitFor(3);
    const [tooLarge] = answers().filter((answer) => answer.id === 2);
    expect(tooLarge?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/Message too large: \d+ bytes; the limit is 4194304 bytes/) });
    expect(answers().find((answer) => answer.id === 3)?.result?.tools?.length).toBeGreaterThan(5);
    expect(stderr).toMatch(/refused a message of 12\.0 MiB on stdin \(the limit is 4 MiB\); serving on/);
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGTERM');
  }
});
