/**
 * The MCP server through the SDK's own client, over stdio and Streamable HTTP, against the sandbox over real
 * HTTP: the tool list (schemas from the core's fields, annotations from the operations' safety), every tool
 * with good and bad input, the account's state after each write, and the key in no result or log line.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { agentDescription, alwaysRequired, singleRowFields } from '@shortlink/core/host';
import { OPERATIONS, ONE_PAGE_FORMS } from '@shortlink/core/operations';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { recordsOf, serverEnv, startHttp, startStdio, summaryOf, textOf, type McpSession } from './harness';
import { toolNameOf } from '../src/tools';

jest.setTimeout(60_000);

let sandbox: Sandbox;
let accountId: string;
let apiKey: string;
const transcript: string[] = [];

function keep(result: CallToolResult): CallToolResult {
  transcript.push(JSON.stringify(result));
  return result;
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
  ({ accountId, apiKey } = sandbox.createAccount({ name: 'MCP Test', email: 'mcp@example.org', plan: 'business' }));
});

afterAll(async () => {
  await sandbox?.close();
});

const EXPECTED_NAMES = OPERATIONS.map((operation) => toolNameOf(ONE_PAGE_FORMS[operation.key] ?? operation));

describe.each([
  ['stdio', startStdio],
  ['Streamable HTTP', startHttp],
])('over %s', (_transport, start) => {
  let mcp: McpSession;
  // Every successful result is checked against the outputSchema its tool lists (which tools were: `validated`).
  const outputChecks = new Map<string, ValidateFunction>();
  const validated = new Set<string>();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = keep(await mcp.call(name, args));
    const check = outputChecks.get(name);
    if (!result.isError && check) {
      const valid = check(result.structuredContent);
      expect({ name, valid, errors: check.errors ?? null }).toEqual({ name, valid: true, errors: null });
      validated.add(name);
    }
    return result;
  };

  beforeAll(async () => {
    mcp = await start(serverEnv(sandbox.baseUrl, apiKey));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const tool of (await mcp.client.listTools()).tools) if (tool.outputSchema) outputChecks.set(tool.name, ajv.compile(tool.outputSchema));
  });
  afterAll(async () => {
    const log = mcp?.stderr() ?? '';
    await mcp?.close();
    transcript.push(log);
    expect(log).toContain('ready on');
  });

  test('lists one tool per operation, with valid schemas in the form words and annotations from the safety', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(EXPECTED_NAMES);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const tool of tools) {
      const listed = OPERATIONS.find((candidate) => toolNameOf(ONE_PAGE_FORMS[candidate.key] ?? candidate) === tool.name)!;
      const operation = ONE_PAGE_FORMS[listed.key] ?? listed;
      // What it does, whether repeating it is safe (from its safety), what it returns: the core's sentences.
      expect(tool.description).toBe(agentDescription(operation, OPERATIONS));
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      const properties = tool.inputSchema.properties as Record<string, { title: string; description: string }>;
      const shown = singleRowFields(operation.fields);
      expect(shown.some((field) => field.key === 'quotaPolicy')).toBe(false); // one call is one row
      expect(Object.keys(properties)).toEqual(shown.map((field) => field.key));
      for (const field of shown) {
        expect(properties[field.key]!.title).toBe(field.label);
        expect(properties[field.key]!.description.startsWith(field.agentHelp ?? field.help)).toBe(true);
      }
      // A field required only for some choices (Campaign when Links is Of a Campaign) says so in its description.
      expect(tool.inputSchema.required ?? []).toEqual(shown.filter(alwaysRequired).map((field) => field.key));
      expect(tool.annotations).toMatchObject({
        readOnlyHint: operation.safety.readOnly,
        destructiveHint: !operation.safety.readOnly && operation.safety.destructive,
        idempotentHint: operation.safety.readOnly || operation.safety.idempotent,
        openWorldHint: operation.safety.offline !== true,
      });
    }
    // No list without an end: Get Many takes a page size of at most 100 and a continuation, no "Return All".
    const getMany = tools.find((tool) => tool.name === 'link_get_many')!;
    expect(Object.keys(getMany.inputSchema.properties ?? {})).toEqual(['pageSize', 'continuation']);
    expect((getMany.inputSchema.properties as Record<string, { maximum: number }>).pageSize.maximum).toBe(100);
  });

  test('Create makes one link per call; Find or Create makes none the second time', async () => {
    const before = sandbox.links(accountId).length;
    const url = `https://example.org/${_transport.replace(/\W/g, '')}-create`;
    const created = recordsOf(await call('link_create', { targetUrl: url, utmSource: 'newsletter', title: 'Spring sale' }));
    expect(created).toHaveLength(1);
    expect(created[0]!.targetUrl).toBe(`${url}?utm_source=newsletter`);
    expect(sandbox.links(accountId).length).toBe(before + 1);

    const first = recordsOf(await call('link_find_or_create', { targetUrl: `${url}-foc` }));
    const second = recordsOf(await call('link_find_or_create', { targetUrl: `${url}-foc` }));
    expect([first[0]!.created, second[0]!.created]).toEqual([true, false]);
    expect(second[0]!.id).toBe(first[0]!.id);
    expect(sandbox.links(accountId).length).toBe(before + 2);
  });

  test('Get, Find, Update, Stats and Delete on one link; Delete again says already deleted', async () => {
    const url = `https://example.org/${_transport.replace(/\W/g, '')}-lifecycle`;
    const [link] = recordsOf(await call('link_create', { targetUrl: url }));
    const id = String(link!.id);
    expect(recordsOf(await call('link_get', { link: link!.shortUrl }))[0]!.id).toBe(id);
    expect(recordsOf(await call('link_find', { targetUrl: url })).map((record) => record.id)).toEqual([id]);

    const updated = recordsOf(await call('link_update', { link: id, title: 'Renamed' }));
    expect(updated[0]!.title).toBe('Renamed');
    expect(sandbox.links(accountId).find((stored) => stored.id === id)!.title).toBe('Renamed');

    const stats = recordsOf(await call('stats_get', { link: id }));
    expect(stats[0]).toMatchObject({ shortUrl: link!.shortUrl });

    const removed = recordsOf(await call('link_delete', { link: id }));
    expect(removed[0]).toMatchObject({ id, deleted: true, alreadyDeleted: false });
    expect(sandbox.links(accountId).some((stored) => stored.id === id)).toBe(false);
    const again = recordsOf(await call('link_delete', { link: id }));
    expect(again[0]).toMatchObject({ deleted: true, alreadyDeleted: true });

    const none = await call('link_find', { targetUrl: url });
    expect(recordsOf(none)).toEqual([]);
    expect(summaryOf(none)).toMatchObject({ found: false });
  });

  test('Domains, Account and Campaign URL', async () => {
    const domains = await call('domain_get_many');
    expect(textOf(domains)).not.toMatch(/error/i);
    expect(Array.isArray(recordsOf(domains))).toBe(true);
    expect(recordsOf(await call('account_get'))).toHaveLength(1);
    const requests = sandbox.requests.length;
    const campaign = recordsOf(await call('campaign_build_url', { targetUrl: 'example.org/sale', utmCampaign: 'spring' }));
    expect(campaign[0]!.url).toBe('https://example.org/sale?utm_campaign=spring');
    expect(sandbox.requests.length).toBe(requests); // offline: nothing sent
  });

  test('Make QR Code: a PNG as image content, an SVG as embedded text, both of the short URL', async () => {
    const [link] = recordsOf(await call('link_create', { targetUrl: `https://example.org/${_transport.replace(/\W/g, '')}-qr` }));
    const png = await call('link_make_qr_code', { link: link!.id, qrSize: 128 });
    expect(recordsOf(png)[0]).toMatchObject({ id: link!.id, qrCodeText: link!.shortUrl, qrCodeMimeType: 'image/png' });
    const image = png.content.find((part) => part.type === 'image') as { data: string; mimeType: string };
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const svg = await call('link_make_qr_code', { link: link!.shortUrl, qrFormat: 'svg' });
    const resource = svg.content.find((part) => part.type === 'resource') as { resource: { mimeType: string; text: string } };
    expect(resource.resource.mimeType).toBe('image/svg+xml');
    expect(resource.resource.text).toMatch(/<svg/);
  });

  test('bad input comes back as a tool error naming the field by its label, and sends nothing', async () => {
    const requests = sandbox.requests.length;
    const cases: [string, Record<string, unknown>, string][] = [
      ['link_create', {}, 'Target URL'],
      ['link_create', { targetUrl: 'https://example.org', slug: 'no spaces allowed' }, 'Slug'],
      ['link_find_or_create', { targetUrl: 'https://example.org', utmSource: { nested: true } }, 'UTM Source'],
      ['link_get', { link: 'abc' }, 'Link'],
      ['link_find', {}, 'Target URL'],
      ['link_update', { link: '1', title: 'x', removeTitle: true }, 'Remove Title'],
      ['link_delete', { link: 'not a link' }, 'Link'],
      ['link_get_many', { pageSize: 500 }, 'Page Size'],
      ['stats_get', { link: '1', splitInto: 'hourly' }, 'Output'],
      ['campaign_build_url', { targetUrl: 'https://example.org', utmMedium: ['a', 'b'] }, 'UTM Medium'],
      ['link_make_qr_code', { link: '1', qrSize: 10 }, 'QR Code Size (Pixels)'],
    ];
    for (const [name, args, label] of cases) {
      const result = await call(name, args);
      expect({ name, isError: result.isError }).toEqual({ name, isError: true });
      // The label, never the key: e.g. "Slug", not "slug"; "Target URL", not "targetUrl".
      expect(textOf(result)).toContain(label);
      expect(textOf(result)).not.toContain(`"${Object.keys(args)[0] ?? 'targetUrl'}"`);
    }
    expect(sandbox.requests.length).toBe(requests);
    const unknownField = await call('link_create', { targetUrl: 'https://example.org', colour: 'red' });
    expect(unknownField.isError).toBe(true);
    expect(textOf(unknownField)).toMatch(/no field "colour".*targetUrl \(Target URL\)/);
    // An unknown tool is the spec's protocol error (JSON-RPC -32602), not a tool result.
    await expect(mcp.call('link_shorten')).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool "link_shorten"') });
  });

  test('Get Many pages, a Campaign Report (with its CSV file) and a campaign sheet\'s preview and submit come back in the shape their outputSchema says', async () => {
    const page = await call('link_get_many', { pageSize: 2 });
    expect(recordsOf(page).length).toBeGreaterThan(0);
    const report = await call('campaign_report', { selectBy: 'all', shape: 'linkTotal', csvFile: true });
    expect(recordsOf(report).length).toBeGreaterThan(0);
    expect((report.structuredContent as { files: unknown[] }).files).toHaveLength(1);
    await call('campaign_report', { selectBy: 'campaign', campaign: 'none_such' });
    await call('link_find', { targetUrl: 'https://example.org/nothing-here' });
    const rows = [{ targetUrl: `https://example.org/${_transport.replace(/\W/g, '')}-sheet`, utmSource: 'Newsletter' }, { targetUrl: 'not a url' }];
    const preview = await call('link_find_or_create_many', { mode: 'preview', rows });
    const { reviewToken } = (preview.structuredContent as { summary: { reviewToken: string } }).summary;
    expect(recordsOf(await call('link_find_or_create_many', { mode: 'submit', rows, reviewToken }))).toHaveLength(2);
  });

  test("every tool's structuredContent validated against its outputSchema", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name)).toEqual([]);
    expect([...validated].sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  test('a link the service does not have is a tool error in the service words', async () => {
    const result = await call('link_get', { link: '999999999' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not found/i);
  });
});

test('Get Many hands out pages with a continuation until the last page, each link once', async () => {
  const { accountId: pagedAccount, apiKey: pagedKey } = sandbox.createAccount({ name: 'Paged', email: 'paged@example.org', plan: 'business' });
  sandbox.seedLinks(pagedAccount, 7);
  const mcp = await startStdio(serverEnv(sandbox.baseUrl, pagedKey));
  try {
    const seen: unknown[] = [];
    let continuation = '';
    const sizes: number[] = [];
    for (let page = 0; page < 5; page++) {
      const result = keep(await mcp.call('link_get_many', { pageSize: 3, continuation }));
      const records = recordsOf(result);
      sizes.push(records.length);
      seen.push(...records.map((record) => record.id));
      continuation = String(summaryOf(result).continuation);
      if (summaryOf(result).lastPage === true) break;
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(continuation).toBe('');
    expect(new Set(seen).size).toBe(7);
    transcript.push(mcp.stderr());
  } finally {
    await mcp.close();
  }
});

test('a find that cannot search the whole account in time says so and changes nothing', async () => {
  const { accountId: bigAccount, apiKey: bigKey } = sandbox.createAccount({ name: 'Big', email: 'big@example.org', plan: 'business' });
  sandbox.seedLinks(bigAccount, 5_000);
  sandbox.setFaults({ latencyMs: 40 });
  const mcp = await startStdio(serverEnv(sandbox.baseUrl, bigKey, { SHORTLINK_TOOL_TIMEOUT_SECONDS: '1' }), ['--no-check']);
  try {
    const before = sandbox.links(bigAccount).length;
    const found = keep(await mcp.call('link_find', { targetUrl: 'https://example.org/nowhere' }));
    expect(found.isError).toBe(true);
    expect(textOf(found)).toMatch(/could not finish/);
    expect(textOf(found)).toMatch(/Nothing was created or changed/);
    const foc = keep(await mcp.call('link_find_or_create', { targetUrl: 'https://example.org/nowhere' }));
    expect(foc.isError).toBe(true);
    expect(sandbox.links(bigAccount).length).toBe(before);
    transcript.push(mcp.stderr());
  } finally {
    sandbox.setFaults(undefined);
    await mcp.close();
  }
});

test('after the service refuses a link for the plan quota, the next creates say so at once and send nothing', async () => {
  const { apiKey: smallKey } = sandbox.createAccount({ name: 'Small', email: 'small-mcp@example.org', plan: 'business', linkQuota: 1 });
  const mcp = await startStdio(serverEnv(sandbox.baseUrl, smallKey), ['--no-check']);
  const posts = () => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/links')).length;
  try {
    const before = posts();
    expect(keep(await mcp.call('link_create', { targetUrl: 'https://example.org/quota-1' })).isError).toBeFalsy();
    const refused = keep(await mcp.call('link_create', { targetUrl: 'https://example.org/quota-2' }));
    expect(refused.isError).toBe(true);
    const told = keep(await mcp.call('link_find_or_create', { targetUrl: 'https://example.org/quota-3' }));
    expect(told.isError).toBe(true);
    expect(textOf(told)).toMatch(/used up; this row was not sent\. The service refused a new link at \d\d:\d\d UTC/);
    expect(posts() - before).toBe(2);
    transcript.push(mcp.stderr());
  } finally {
    await mcp.close();
  }
});

test('a wrong or revoked key is a tool error that says what to do, never echoing the key', async () => {
  const wrongKey = 'sk_live_wrong_key_0123456789abcdef';
  const mcp = await startHttp(serverEnv(sandbox.baseUrl, wrongKey), ['--no-check']);
  try {
    const result = await mcp.call('account_get');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Check the API key this server was started with/);
    expect(JSON.stringify(result) + mcp.stderr()).not.toContain(wrongKey);
  } finally {
    await mcp.close();
  }
});

test('the key appears in no tool result and no log line', () => {
  expect(transcript.length).toBeGreaterThan(20);
  for (const entry of transcript) expect(entry).not.toContain(apiKey);
});
