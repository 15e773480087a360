/**
 * The n8n package inside a real n8n (2.41.1 by default, N8N_E2E_VERSION=1.123.81 for the 1.x line):
 * the `npm pack` tarball installed as a community package, a credential pointing at a sandbox started
 * for this run, the example workflows shipped in the repository (and one QR code workflow of its own) imported
 * and executed with n8n's own CLI. Every test asserts on the execution output and on the sandbox's state.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCampaignUrl } from '@shortlink/core/operations';
import { campaignTagsOf } from '../../packages/core/src/operations/reports/campaign-of-link';
import { lastCompleteDays, daysOf } from '../../packages/core/src/operations/reports/report-days';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { exampleWorkflow, loadExampleWorkflows } from '../../scripts/n8n/examples';
import { N8nInstance, nodeItems, nodeOutput, type CliResult, type ExecutionRun, type WorkflowJson } from '../../scripts/n8n/instance';
import { ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { decodePng } from '../../packages/core/test/qr-code/decode';
import { freePort, waitFor } from './support/ports';

const CREDENTIAL = { id: 'slSandboxE2e', name: 'Short Link sandbox' };
// Lower than the service's 120/60 s so that the 200-item run must be paced, in seconds rather than minutes.
const RATE_LIMIT = { limit: 60, windowSeconds: 6 };
const OWNER = { email: 'owner@example.com', password: 'E2e-owner-1', firstName: 'E2e', lastName: 'Owner' };
const LINK_FIELDS = ['active', 'blocked', 'clicks', 'createdAt', 'domain', 'expiresAt', 'hasPassword', 'id', 'shortUrl', 'slug', 'targetUrl', 'title'];

type Item = Record<string, unknown>;
/** An output item with its binary data's description (the bytes stay in n8n's binary data store). */
type BinaryItem = { json: Item; binary?: Record<string, { fileName?: string; mimeType?: string; fileExtension?: string }> };

/** Examples that a test below executes and checks in detail. */
const EXECUTED_ABOVE = ['slManageLink', 'slDeleteCampaign', 'slFindOrCreate', 'slAccountInfo', 'slBulkShorten', 'slListAllLinks', 'slErrorsDemo'];
/** Examples with Google Sheets or Slack nodes, run by examples.e2e.ts. */
const MARKETER_EXAMPLES = ['slCampaignSheet', 'slWeeklyClicks', 'slNewLinkSlack', 'slSheetReview'];

let sandbox: Sandbox;
let n8n: N8nInstance;
let userFolder: string;
/** Everything n8n printed in this suite, to prove the API key never shows up. */
const printed: string[] = [];

const demoLinks = () => sandbox.links(sandbox.demoAccountId);

async function execute(workflowId: string): Promise<CliResult & { run: ExecutionRun | undefined }> {
  const result = await n8n.execute(workflowId);
  printed.push(result.stdout, result.stderr);
  return result;
}

/** Executes and insists on success, showing n8n's own words when it failed. */
async function executeOk(workflowId: string): Promise<ExecutionRun> {
  const result = await execute(workflowId);
  if (result.code !== 0 || !result.run || result.run.data.resultData.error) {
    throw new Error(`n8n execute --id=${workflowId} failed (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
  return result.run;
}

/** The service's own answer to a request, straight from the sandbox (what n8n must show). */
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Item }> {
  const response = await fetch(`${sandbox.baseUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Item) };
}

function requestsSince(index: number, method: string, path: string | RegExp) {
  return sandbox.requests.slice(index).filter((request) => request.method === method && (typeof path === 'string' ? request.path === path : path.test(request.path)));
}

const ERRORS_NODE = 'Shorten, continue on fail';

/** The errors example without its error output: the first failed item must stop the run. */
function stoppingErrorsWorkflow(): WorkflowJson {
  const workflow = structuredClone(exampleWorkflow('errors-continue-on-fail.json'));
  workflow.id = 'slErrorsStop';
  workflow.name = `${workflow.name} (stop on error)`;
  for (const node of workflow.nodes) delete node.onError;
  workflow.nodes = workflow.nodes.filter((node) => node.name !== 'Failed rows');
  delete workflow.connections[ERRORS_NODE];
  return workflow;
}

/** Report examples without the node that needs the user's own Google or Slack account (run as a copy). */
const REPORT_EXAMPLES = [
  { file: 'weekly-campaign-report-sheet.json', drop: 'Append to the sheet', id: 'slWeeklyReportX' },
  { file: 'daily-top-links-slack.json', drop: 'Post to Slack', id: 'slDailyTopLinkX' },
];

function withoutNode(file: string, drop: string, id: string): WorkflowJson {
  const workflow = structuredClone(exampleWorkflow(file));
  workflow.id = id;
  workflow.name = `${workflow.name} (without ${drop})`;
  workflow.nodes = workflow.nodes.filter((node) => node.name !== drop);
  // n8n's CLI runs a workflow from a manual trigger: the schedule becomes one (same name, same connections).
  for (const node of workflow.nodes) {
    if (node.type === 'n8n-nodes-base.scheduleTrigger') Object.assign(node, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
  }
  type Outputs = { main: Array<Array<{ node: string }>> };
  for (const outputs of Object.values(workflow.connections as Record<string, Outputs>)) {
    outputs.main = outputs.main.map((targets) => targets.filter((target) => target.node !== drop));
  }
  return workflow;
}

/** The QR code workflow's slug: the file names must come from it. */
const QR_SLUG = 'flyer-qr-e2e';

/**
 * Create with "Also Make a QR Code" on, then Make QR Code of the link it returned (other size, level and
 * colour), each followed by n8n's own Extract From File node: the next node reads the PNG out of n8n's binary
 * data store (filesystem mode, n8n's default) and hands it over as base64 in its json.
 */
function qrCodeWorkflow(): WorkflowJson {
  const shortLink = (name: string, x: number, parameters: Record<string, unknown>) => ({
    id: `00000000-0000-4000-8000-00000000a10${x}`,
    name,
    type: 'n8n-nodes-shortlink.shortLink',
    typeVersion: 1,
    position: [x * 220, 0],
    parameters,
    credentials: { shortLinkApi: { id: '', name: 'Short Link account' } },
  });
  const extract = (name: string, x: number) => ({
    id: `00000000-0000-4000-8000-00000000e10${x}`,
    name,
    type: 'n8n-nodes-base.extractFromFile',
    typeVersion: 1.1,
    position: [x * 220, 200],
    parameters: { operation: 'binaryToPropery', binaryPropertyName: 'data', destinationKey: 'png' },
  });
  const to = (...nodes: string[]) => ({ main: [nodes.map((node) => ({ node, type: 'main', index: 0 }))] });
  return {
    id: 'slQrCodeE2e',
    name: 'Short Link: create a link with its QR code, then make another QR code of it',
    nodes: [
      { id: '00000000-0000-4000-8000-00000000a100', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      shortLink('Create with QR code', 1, {
        resource: 'link',
        operation: 'create',
        targetUrl: 'https://example.org/flyer',
        additionalFields: { slug: QR_SLUG, alsoQrCode: true },
      }),
      shortLink('QR code of the link', 2, {
        resource: 'link',
        operation: 'qrCode',
        link: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
        qrSize: 300,
        qrErrorCorrection: 'H',
        qrForeground: '#1A237E',
      }),
      extract('Read created QR code', 2),
      extract('Read made QR code', 3),
    ],
    connections: {
      Start: to('Create with QR code'),
      'Create with QR code': to('QR code of the link', 'Read created QR code'),
      'QR code of the link': to('Read made QR code'),
    },
  };
}

beforeAll(async () => {
  const runtime = await ensureN8nRuntime();
  sandbox = await startSandbox({ rateLimit: RATE_LIMIT });
  userFolder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-n8n-'));
  n8n = new N8nInstance({ runtime, userFolder, port: await freePort(), brokerPort: await freePort() });
  const tarball = process.env.SHORTLINK_E2E_TARBALL;
  if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');
  await n8n.installCommunityPackage(tarball);
  await n8n.importCredential({ ...CREDENTIAL, apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
  await n8n.importWorkflows(
    [
      ...loadExampleWorkflows().map((example) => example.workflow),
      stoppingErrorsWorkflow(),
      ...REPORT_EXAMPLES.map((e) => withoutNode(e.file, e.drop, e.id)),
      qrCodeWorkflow(),
    ],
    CREDENTIAL,
  );
}, 300_000);

afterAll(async () => {
  await n8n?.stop();
  await sandbox?.close();
  if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

describe('example workflows executed by n8n', () => {
  it('the campaign sheet example shortens every row with its UTM parameters', async () => {
    const workflow = exampleWorkflow('shorten-campaign-sheet.json');
    const sheet = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.set')!;
    const rows = (JSON.parse(String(sheet.parameters.jsonOutput)) as { rows: Array<{ url: string; source: string; medium: string; campaign: string }> }).rows;

    const shortener = workflow.nodes.find((node) => node.type === 'n8n-nodes-shortlink.shortLink')!;

    const run = await executeOk(workflow.id!);

    const created = nodeOutput(run, shortener.name);
    expect(created.map((link) => link.targetUrl)).toEqual(rows.map((row) => buildCampaignUrl(row.url, row)));
    for (const link of created) {
      // The twelve fields of Get, also right after Create.
      expect(Object.keys(link).sort()).toEqual(LINK_FIELDS);
      expect(demoLinks().find((stored) => stored.id === link.id)).toMatchObject({ targetUrl: link.targetUrl, title: link.title });
    }
  });

  it('creates a link with UTM parameters, gets it, updates it and reads its statistics', async () => {
    const mark = sandbox.requests.length;
    const run = await executeOk('slManageLink');

    const created = nodeOutput(run, 'Create campaign link')[0]!;
    const campaignUrl = buildCampaignUrl('https://example.org/summer-sale', { source: 'newsletter', medium: 'email', campaign: 'summer_sale' });
    expect(created).toMatchObject({ targetUrl: campaignUrl, title: 'Summer sale', active: true, clicks: 0 });
    const id = String(created.id);

    const read = nodeOutput(run, 'Get link')[0]!;
    expect(Object.keys(read).sort()).toEqual(LINK_FIELDS);
    expect(created).toEqual(read);
    expect(read).toMatchObject({ id, targetUrl: campaignUrl, blocked: false, hasPassword: false, expiresAt: null });

    expect(nodeOutput(run, 'Update title')[0]).toMatchObject({ id, title: 'Summer sale (extended)', targetUrl: campaignUrl });
    expect(nodeOutput(run, 'Click statistics')[0]).toMatchObject({ linkId: id, totalClicks: 0, clicksByDay: [] });

    expect(demoLinks().find((link) => link.id === id)).toMatchObject({ title: 'Summer sale (extended)', targetUrl: campaignUrl });
    expect(requestsSince(mark, 'POST', '/api/v1/links')).toHaveLength(1);
    expect(requestsSince(mark, 'PATCH', `/api/v1/links/${id}`)).toHaveLength(1);
    expect(requestsSince(mark, 'GET', `/api/v1/links/${id}/stats`)).toHaveLength(1);
  });

  it('finds the campaign links by target URL and deletes them', async () => {
    const campaignUrl = buildCampaignUrl('https://example.org/summer-sale', { source: 'newsletter', medium: 'email', campaign: 'summer_sale' });
    const before = demoLinks().filter((link) => link.targetUrl === campaignUrl).map((link) => link.id);
    expect(before.length).toBeGreaterThan(0);

    const run = await executeOk('slDeleteCampaign');

    expect(nodeOutput(run, 'Find campaign links').map((link) => link.id).sort()).toEqual([...before].sort());
    const deleted = nodeOutput(run, 'Delete link');
    expect(deleted.map((item) => item.id).sort()).toEqual([...before].sort());
    expect(deleted.every((item) => item.deleted === true)).toBe(true);
    expect(demoLinks().filter((link) => link.targetUrl === campaignUrl)).toEqual([]);
    expect((await api('GET', `/links/${before[0]}`)).status).toBe(404);
  });

  it('find or create, run twice, creates the link once and finds it the second time', async () => {
    const campaignUrl = buildCampaignUrl('https://example.org/pricing', { source: 'partner', medium: 'referral', campaign: 'pricing' });

    const first = nodeOutput(await executeOk('slFindOrCreate'), 'Find or create pricing link');
    const second = nodeOutput(await executeOk('slFindOrCreate'), 'Find or create pricing link');

    expect(first).toEqual([expect.objectContaining({ created: true, targetUrl: campaignUrl })]);
    expect(second).toEqual([expect.objectContaining({ created: false, id: first[0]!.id, targetUrl: campaignUrl })]);
    expect(demoLinks().filter((link) => link.targetUrl === campaignUrl)).toHaveLength(1);
  });

  it('reads the account and the custom domains as the service answers them', async () => {
    const run = await executeOk('slAccountInfo');

    const account = (await api('GET', '/me')).body;
    const domains = (await api('GET', '/domains')).body.data as Item[];
    expect(nodeOutput(run, 'Account and usage')).toEqual([expect.objectContaining({ id: account.id, email: account.email, plan: account.plan })]);
    expect(nodeOutput(run, 'Custom domains')).toEqual(domains);
    expect(domains.map((domain) => domain.hostname)).toContain('go.example.org');
  });

  it('shortens 200 rows in one run with Find or Create, paced by the rate limit, without a failed item or a duplicate; a rerun creates nothing', async () => {
    const before = demoLinks().length;
    const mark = sandbox.requests.length;

    const run = await executeOk('slBulkShorten');

    const created = nodeOutput(run, 'Shorten');
    expect(created).toHaveLength(200);
    expect(created.filter((item) => 'error' in item)).toEqual([]);
    expect(new Set(created.map((item) => item.id)).size).toBe(200);
    // More creates than one rate-limit window allows: the run had to wait for later windows.
    expect(requestsSince(mark, 'POST', '/api/v1/links').length).toBeGreaterThan(RATE_LIMIT.limit);
    const links = demoLinks();
    expect(links).toHaveLength(before + 200);
    for (let index = 1; index <= 200; index++) {
      const url = buildCampaignUrl(`https://example.org/products/item-${index}`, { source: 'feed', medium: 'catalog', campaign: 'products' });
      expect(links.filter((link) => link.targetUrl === url)).toHaveLength(1);
    }

    // Find or Create: a rerun (as after a stop at the plan's quota) creates nothing and returns the same links.
    const rerunMark = sandbox.requests.length;
    const rerun = nodeOutput(await executeOk('slBulkShorten'), 'Shorten');
    expect(requestsSince(rerunMark, 'POST', '/api/v1/links')).toHaveLength(0);
    expect(rerun.map((item) => [item.id, item.created])).toEqual(created.map((item) => [item.id, false]));
    expect(demoLinks()).toHaveLength(before + 200);
  });

  it('Get Many with Return All follows the cursor over every page', async () => {
    const mark = sandbox.requests.length;

    const run = await executeOk('slListAllLinks');

    const listed = nodeOutput(run, 'Get all links');
    const stored = demoLinks();
    expect(stored.length).toBeGreaterThan(200);
    expect(listed.map((link) => link.id)).toEqual(stored.map((link) => link.id));
    const pages = requestsSince(mark, 'GET', '/api/v1/links');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.filter((request) => request.url.includes('cursor=')).length).toBe(pages.length - 1);
  });

  it('On Error → error output: each failed row reaches the next node with the whole explanation in its json', async () => {
    const clash = await api('POST', '/links', { targetUrl: 'https://example.org/clash', slug: 'spring-sale' });
    expect(clash.status).toBe(409);
    const mark = sandbox.requests.length;

    const run = await executeOk('slErrorsDemo');

    const [fine] = nodeOutput(run, ERRORS_NODE, 0);
    expect(fine).toMatchObject({ targetUrl: 'https://example.org/fine' });
    expect(nodeOutput(run, ERRORS_NODE, 0)).toHaveLength(1);
    // The failed rows, routed to the error output by n8n and merged with their input row: nothing replaced.
    const failed = nodeOutput(run, ERRORS_NODE, 1);
    expect(failed.map((item) => item.url)).toEqual(['https://example.org/clash', 'https://example.org/typo', 'ftp://example.org/wrong-scheme']);
    expect(failed[0]).toMatchObject({
      error: `${String(clash.body.title)} (HTTP 409): ${String(clash.body.detail)}`,
      details: { message: clash.body.title, description: clash.body.detail, httpCode: '409', field: 'Slug' },
    });
    // What the next node made of them: the columns a sheet of failures wants.
    expect(nodeOutput(run, 'Failed rows')).toEqual([
      { url: 'https://example.org/clash', slug: 'spring-sale', error: failed[0]!.error, httpCode: '409', field: 'Slug' },
      {
        url: 'https://example.org/typo',
        slug: 'no spaces please',
        error: 'Slug may contain letters, digits, "-" and "_" only, starting with a letter or digit, at most 64 characters; a space is not allowed (got "no spaces please").',
        httpCode: '',
        field: 'Slug',
      },
      {
        url: 'ftp://example.org/wrong-scheme',
        slug: '',
        error: 'Target URL must be an absolute http(s) URL such as https://example.org/page; got "ftp://example.org/wrong-scheme".',
        httpCode: '',
        field: 'Target URL',
      },
    ]);
    // The slug typo and the URL with the wrong scheme were explained before sending: two creates, the good one and the clash.
    expect(requestsSince(mark, 'POST', '/api/v1/links')).toHaveLength(2);
    const targets = demoLinks().map((link) => link.targetUrl);
    expect(targets).toContain('https://example.org/fine');
    expect(targets.filter((url) => /clash|typo|wrong-scheme/.test(url))).toEqual([]);
  });

  it('without Continue On Fail the run stops with the service detail and exit code 1', async () => {
    const clash = await api('POST', '/links', { targetUrl: 'https://example.org/clash', slug: 'spring-sale' });

    const result = await execute('slErrorsStop');

    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(String(clash.body.detail));
  });

  it('the weekly report example: one row per campaign and day of the last 7 complete UTC days, sheet-ready columns', async () => {
    const run = await executeOk('slWeeklyReportX');
    const rows = nodeOutput(run, 'Last week per campaign and day');
    const campaigns = new Set(demoLinks().map((link) => campaignTagsOf(link.targetUrl).campaign || '(no campaign)'));
    const days = daysOf(lastCompleteDays(Date.now()));
    expect(rows).toHaveLength(days.length * campaigns.size);
    expect(new Set(rows.map((row) => row.date))).toEqual(new Set(days));
    expect(new Set(rows.map((row) => row.campaign))).toEqual(campaigns);
    for (const row of rows) expect(Object.keys(row)).toEqual(['date', 'campaign', 'links', 'clicks', 'scans']);
    // The numbers are the service's: per day, the sum of the in-range clicks of the campaign's links.
    const expected = new Map<string, number>();
    for (const link of demoLinks().filter((l) => l.clicks > 0)) {
      const campaign = campaignTagsOf(link.targetUrl).campaign || '(no campaign)';
      for (const day of (await api('GET', `/links/${link.id}/stats`)).body.clicksByDay as Array<{ date: string; clicks: number }>) {
        if (days.includes(day.date)) expected.set(`${day.date}|${campaign}`, (expected.get(`${day.date}|${campaign}`) ?? 0) + day.clicks);
      }
    }
    for (const row of rows) expect(row.clicks).toBe(expected.get(`${row.date}|${row.campaign}`) ?? 0);
    expect(rows.some((row) => (row.clicks as number) > 0)).toBe(true); // the demo's seeded clicks of yesterday
  });

  it('the daily top links example: yesterday (UTC) per link, the five most clicked in one message', async () => {
    const run = await executeOk('slDailyTopLinkX');
    const perLink = nodeOutput(run, 'Yesterday per link');
    const yesterday = lastCompleteDays(Date.now(), 1).from;
    expect(perLink).toHaveLength(demoLinks().length);
    expect(perLink.every((row) => row.from === yesterday && row.to === yesterday)).toBe(true);
    const [message] = nodeOutput(run, 'Message text');
    const lines = String(message!.text).split('\n');
    expect(lines[0]).toBe(`*Top links of ${yesterday} (UTC)*`);
    expect(lines.slice(1)).toHaveLength(Math.min(5, perLink.length));
    // The most clicked link of yesterday comes first, with the service's count.
    let top = 0;
    for (const link of demoLinks().filter((l) => l.clicks > 0)) {
      const day = ((await api('GET', `/links/${link.id}/stats`)).body.clicksByDay as Array<{ date: string; clicks: number }>).find((d) => d.date === yesterday);
      top = Math.max(top, day?.clicks ?? 0);
    }
    expect(lines[1]).toMatch(new RegExp(`: ${top} clicks$`));
  });

  it('Create with "Also Make a QR Code" gives the PNG of its QR sibling (scans apart), Make QR Code the PNG of the link; both named after the slug', async () => {
    const run = await executeOk('slQrCodeE2e');

    const created = nodeOutput(run, 'Create with QR code');
    expect(created).toHaveLength(1);
    const link = demoLinks().find((stored) => stored.id === created[0]!.id)!;
    expect(link).toMatchObject({ slug: QR_SLUG, targetUrl: 'https://example.org/flyer' });
    const sibling = demoLinks().find((stored) => stored.id === created[0]!.qrLinkId)!;
    expect(sibling).toMatchObject({ targetUrl: 'https://example.org/flyer?utm_medium=qr' });
    const fileName = `${QR_SLUG}.png`;

    for (const [node, reader, coded] of [
      ['Create with QR code', 'Read created QR code', sibling],
      ['QR code of the link', 'Read made QR code', link],
    ] as const) {
      const [item] = nodeItems(run, node) as BinaryItem[];
      // The link's own fields and what tells of the file, in the json; the image itself as binary data.
      expect(item!.json).toMatchObject({ id: link.id, shortUrl: link.shortUrl, qrCodeFileName: fileName, qrCodeMimeType: 'image/png', qrCodeText: coded.shortUrl });
      expect(item!.binary?.data).toMatchObject({ fileName, mimeType: 'image/png', fileExtension: 'png' });

      // What the next node read from n8n's binary data: a PNG whose code is the short URL, exactly.
      const [read] = nodeOutput(run, reader);
      const png = Buffer.from(String(read!.png), 'base64');
      expect(decodePng(png)).toBe(coded.shortUrl);
    }
    // The made one has the size asked for in its form (the width and height of the PNG's header).
    const [made] = nodeOutput(run, 'Read made QR code');
    const png = Buffer.from(String(made!.png), 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([300, 300]);
  });

  it('every other example shipped with a manual trigger runs without an error', async () => {
    // The marketer's examples need Google and Slack accounts: examples.e2e.ts runs them with stand-ins for those nodes.
    // The report examples run above as copies without their Google or Slack node.
    const covered = new Set([exampleWorkflow('shorten-campaign-sheet.json').id, ...EXECUTED_ABOVE, 'slNewLinkTrig', ...MARKETER_EXAMPLES, 'slWeeklyReport', 'slDailyTopLinks']);
    const shipped = loadExampleWorkflows().map((example) => example.workflow.id);
    // The list of examples run elsewhere names only examples that exist: none can drop out of every test unseen.
    expect([...covered].filter((id) => !shipped.includes(id))).toEqual([]);
    const others = loadExampleWorkflows().filter((example) => !covered.has(example.workflow.id));
    for (const example of others) {
      const mark = sandbox.requests.length;
      const run = await executeOk(example.workflow.id!);
      expect(run.data.resultData.lastNodeExecuted).toBeDefined();
      expect(sandbox.requests.length).toBeGreaterThan(mark);
    }
  });

  it('never prints the API key', () => {
    expect(printed.join('\n')).not.toContain(sandbox.apiKey);
  });
});

describe('the Short Link Trigger in a running n8n', () => {
  it('activation sets the mark; links created after it reach the workflow exactly once', async () => {
    const existing = new Set(demoLinks().map((link) => link.id));
    await n8n.activate('slNewLinkTrig');
    const startMark = sandbox.requests.length;
    await n8n.start();

    // The first poll runs at activation: it lists the newest page and only remembers where it stands.
    expect(await waitFor(() => requestsSince(startMark, 'GET', '/api/v1/links').length > 0, 60_000)).toBe(true);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      const answer = await api('POST', '/links', { targetUrl: `https://example.org/after-activation/${index}`, title: `After activation ${index}` });
      expect(answer.status).toBe(201);
      created.push(String(answer.body.id));
    }

    // The next poll (every minute) delivers them; the workflow reads each one's statistics once.
    const statsOf = (id: string) => requestsSince(startMark, 'GET', `/api/v1/links/${id}/stats`).length;
    expect(await waitFor(() => created.every((id) => statsOf(id) > 0), 150_000, 1000)).toBe(true);
    // One more poll after the delivery must not deliver them again.
    const deliveredMark = sandbox.requests.length;
    expect(await waitFor(() => requestsSince(deliveredMark, 'GET', '/api/v1/links').length > 0, 90_000, 1000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3000));

    expect(created.map(statsOf)).toEqual(created.map(() => 1));
    const statsRequested = requestsSince(startMark, 'GET', /^\/api\/v1\/links\/[^/]+\/stats$/).map((request) => request.path.split('/')[4]!);
    expect(statsRequested.filter((id) => existing.has(id))).toEqual([]);

    // The editor's own record: one successful trigger execution holding the five links.
    await n8n.setupOwner(OWNER);
    const cookie = await n8n.login(OWNER.email, OWNER.password);
    const filter = encodeURIComponent(JSON.stringify({ workflowId: 'slNewLinkTrig' }));
    const executions = (await (await fetch(`${n8n.editorUrl}/rest/executions?filter=${filter}`, { headers: { cookie } })).json()) as {
      data: { results: Array<{ status: string; mode: string }> };
    };
    expect(executions.data.results).toEqual([expect.objectContaining({ status: 'success', mode: 'trigger' })]);
    expect(readFileSync(join(userFolder, '.n8n', 'nodes', 'package.json'), 'utf8')).toContain('n8n-nodes-shortlink');
  }, 400_000);
});
