/**
 * The package on n8n's own distributed engine: queue mode with a main instance (editor, webhooks, trigger
 * polls), two workers (`n8n worker`) that run the executions, Redis as the queue and Postgres as the shared
 * database — Debian's packages, private instances on loopback (scripts/n8n/queue-services.ts). The packed
 * tarball is installed in every process. Executions started at once on different workers share one API key
 * of a sandbox whose window is scaled down; only the RateLimit-* headers connect them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RecordedRequest, type Sandbox } from '@shortlink/sandbox';
import { exampleWorkflow } from '../../scripts/n8n/examples';
import { N8nInstance, type ExecutionItem, type WorkflowJson } from '../../scripts/n8n/instance';
import { startQueueServices, type QueueServices } from '../../scripts/n8n/queue-services';
import { chosenN8nVersion, ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { freePort, waitFor } from './support/ports';
import { campaignSheet, sampleSheet, type Row } from './support/stand-ins';
import { shortenRowsWorkflow } from './support/workflows';

const OWNER = { email: 'owner@example.com', password: 'E2e-owner-1', firstName: 'E2e', lastName: 'Owner' };
const BULK_CREDENTIAL = { id: 'slQueueBulk', name: 'Short Link (bulk key)' };
const TRIGGER_CREDENTIAL = { id: 'slQueueTrig', name: 'Short Link (trigger key)' };
const SHEET_CREDENTIAL = { id: 'slQueueSheet', name: 'Short Link (campaign sheet key)' };
const SHEET_WORKFLOW = 'slQueueSheetWf';
const SHEET_PATH = 'shortlink-queue-sheet';
const BULK_WORKFLOW = 'slQueueBulk';
const TRIGGER_WORKFLOW = 'slNewLinkTrig';
const WEBHOOK_PATH = 'shortlink-queue-bulk';
/** The service's 120 per 60 s, scaled to 120 per 6 s: four runs of 150 rows are five whole windows. */
const WINDOW = { limit: 120, windowSeconds: 6 };
const RUNS = 4;
// Each execution reads the plan's quota once before its first create (GET /me): 4 × (149 rows + 1 read) = 600
// requests, five whole windows, so a client that spends every window finishes in five.
const ROWS = 149;
/** One worker process per two executions: four at once land on both. */
const WORKER_CONCURRENCY = 2;
/**
 * Checked on the 2.x line (the default): the public API's execution stop, `publish:workflow` and the
 * workers' health server as used here. The 1.x line is not run in queue mode.
 */
const QUEUE_MODE_CHECKED = Number(chosenN8nVersion().split('.')[0]) >= 2;
const describeQueueMode = QUEUE_MODE_CHECKED ? describe : describe.skip;

let services: QueueServices | undefined;
let bulkSandbox: Sandbox;
let triggerSandbox: Sandbox;
let sheetSandbox: Sandbox;
let main: N8nInstance;
const workers: N8nInstance[] = [];
const folders: string[] = [];
let apiKey: string;
/** Links created for the trigger after its activation poll, and when. */
const triggerLinks: string[] = [];

interface PublicExecution {
  id: string;
  status: string;
  mode: string;
  workflowId: string;
  data?: { resultData: { runData: Record<string, Array<{ data?: { main?: Array<ExecutionItem[] | null> } }>> } };
}

/** Webhook (answers at once) → `rows` rows from the request body → one Create per row, Continue On Fail. */
function bulkWorkflow(): WorkflowJson {
  return shortenRowsWorkflow({
    id: BULK_WORKFLOW,
    name: 'Queue mode: shorten a batch posted to a webhook',
    trigger: {
      name: 'Batch posted',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: '6f1c2e1a-5d2b-4c59-9b0e-3c1f0b7a9e11',
      parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
    },
    rows: "Array.from({ length: $json.body.rows }, (_, i) => ({ url: 'https://example.org/queue/' + $json.body.batch + '/' + i }))",
    continueOnFail: true,
  });
}

/** The campaign sheet's ten sample rows and twenty more, as the sheet a team shortens every week. */
const SHEET_ROWS: Row[] = [
  ...sampleSheet(),
  ...Array.from({ length: 20 }, (_, i) => ({ row_number: 12 + i, URL: `https://example.org/queue-sheet/${i}`, Source: 'newsletter', Medium: 'email', Campaign: 'autumn_sale', 'Short URL': '' })),
];

/**
 * examples/n8n/campaign-sheet.json as shipped, its Short Link node untouched, the Google Sheets and Slack nodes
 * stand-ins (test/e2e/support/stand-ins.ts), started by a webhook so that its executions run on the workers.
 */
function sheetWorkflow(): WorkflowJson {
  const workflow = campaignSheet(SHEET_ROWS, {
    "When clicking 'Execute workflow'": (node) => ({
      name: node.name,
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: '0b9c7f51-2d7e-4f0e-9a51-6c3d2e8a4b17',
      parameters: { httpMethod: 'POST', path: SHEET_PATH, responseMode: 'onReceived', options: {} },
    }),
  });
  return { ...workflow, id: SHEET_WORKFLOW, name: 'Queue mode: the campaign sheet example, started twice at once' };
}

async function postBatch(batch: string, rows: number): Promise<void> {
  const response = await fetch(main.webhookUrl(WEBHOOK_PATH), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ batch, rows }) });
  expect(response.status).toBe(200);
}

async function executionsOf(workflowId: string, status?: string): Promise<PublicExecution[]> {
  const query = new URLSearchParams({ workflowId, limit: '50', ...(status ? { status } : {}) });
  return (await main.publicApi<{ data: PublicExecution[] }>(apiKey, 'GET', `/executions?${query}`)).data;
}

const execution = (id: string) => main.publicApi<PublicExecution>(apiKey, 'GET', `/executions/${id}?includeData=true`);

/** The executions each worker says it started ("Worker started execution 12 (job 12)"). */
function startedBy(worker: N8nInstance): string[] {
  return [...worker.output.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]!);
}

function since(sandbox: Sandbox, mark: number, method?: string): RecordedRequest[] {
  return sandbox.requests.slice(mark).filter((request) => !method || request.method === method);
}

describeQueueMode('queue mode: a main instance, two workers, Redis and Postgres', () => {
  beforeAll(async () => {
    const runtime = await ensureN8nRuntime();
    const tarball = process.env.SHORTLINK_E2E_TARBALL;
    if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');
    services = await startQueueServices();
    const queue = { redis: services.redis, postgres: services.postgres };
    bulkSandbox = await startSandbox({ rateLimit: WINDOW });
    triggerSandbox = await startSandbox();
    sheetSandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });

    const folder = (name: string) => {
      const path = mkdtempSync(join(tmpdir(), `shortlink-e2e-queue-${name}-`));
      folders.push(path);
      return path;
    };
    main = new N8nInstance({ runtime, userFolder: folder('main'), port: await freePort(), brokerPort: await freePort(), queue });
    for (const name of ['worker1', 'worker2']) {
      workers.push(new N8nInstance({ runtime, userFolder: folder(name), port: await freePort(), brokerPort: await freePort(), encryptionKey: main.encryptionKey, queue }));
    }
    // Every process loads community packages from its own user folder, as separate machines would.
    await Promise.all([main, ...workers].map((instance) => instance.installCommunityPackage(tarball)));

    await main.importCredentials([
      { ...BULK_CREDENTIAL, apiKey: bulkSandbox.apiKey, baseUrl: bulkSandbox.baseUrl },
      { ...TRIGGER_CREDENTIAL, apiKey: triggerSandbox.apiKey, baseUrl: triggerSandbox.baseUrl },
      { ...SHEET_CREDENTIAL, apiKey: sheetSandbox.apiKey, baseUrl: sheetSandbox.baseUrl },
    ]);
    await main.importWorkflows([bulkWorkflow()], BULK_CREDENTIAL);
    await main.importWorkflows([sheetWorkflow()], SHEET_CREDENTIAL);
    await main.activate(SHEET_WORKFLOW);
    await main.importWorkflows([exampleWorkflow('new-link-trigger.json')], TRIGGER_CREDENTIAL);
    await main.activate(BULK_WORKFLOW);
    await main.activate(TRIGGER_WORKFLOW);

    const started = Date.now();
    await main.start(240_000);
    await Promise.all(workers.map((worker) => worker.startWorker({ concurrency: WORKER_CONCURRENCY, timeoutMs: 240_000 })));
    console.log(`queue mode: main and two workers ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await main.setupOwner(OWNER);
    const cookie = await main.login(OWNER.email, OWNER.password);
    apiKey = await main.createApiKey(cookie, 'queue-mode e2e', ['execution:list', 'execution:read', 'execution:stop']);
  }, 900_000);

  afterAll(async () => {
    // Whatever failed above: every process and folder of this suite goes.
    await Promise.all([main?.stop(), ...workers.map((worker) => worker.stop())]);
    await services?.stop();
    await Promise.all([bulkSandbox?.close(), triggerSandbox?.close(), sheetSandbox?.close()]);
    for (const path of folders) rmSync(path, { recursive: true, force: true });
  }, 120_000);

  it('the trigger polls on the main instance: its activation poll sets the mark', async () => {
    // At activation the trigger lists the newest page and only remembers where the list stands.
    expect(await waitFor(() => since(triggerSandbox, 0, 'GET').some((request) => request.path === '/api/v1/links'), 60_000)).toBe(true);
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${triggerSandbox.baseUrl}/api/v1/links`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${triggerSandbox.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ targetUrl: `https://example.org/queue-trigger/${index}` }),
      });
      expect(response.status).toBe(201);
      triggerLinks.push(String(((await response.json()) as { id: string }).id));
    }
  });

  it(`${RUNS} bulk executions of ${ROWS} rows at once on both workers share one key: no failed item, no duplicate, few 429s, the window used`, async () => {
    const mark = bulkSandbox.requests.length;
    const batches = Array.from({ length: RUNS }, (_, index) => `run${index + 1}`);
    await Promise.all(batches.map((batch) => postBatch(batch, ROWS)));

    const finished = async () => (await executionsOf(BULK_WORKFLOW)).filter((run) => !['new', 'running', 'waiting'].includes(run.status));
    expect(await waitFor(async () => (await finished()).length >= RUNS, 240_000, 1000)).toBe(true);
    const runs = await finished();
    expect(runs.map((run) => run.status)).toEqual(batches.map(() => 'success'));

    // Every row one item with a link, none failed.
    let failed = 0;
    for (const run of runs) {
      const items = (await execution(run.id)).data!.resultData.runData.Shorten![0]!.data!.main![0]!;
      expect(items).toHaveLength(ROWS);
      failed += items.filter((item) => item.error || 'error' in item.json).length;
    }
    // The executions ran on the workers, and on both of them.
    const ids = runs.map((run) => run.id);
    const perWorker = workers.map((worker) => startedBy(worker).filter((id) => ids.includes(id)));
    expect(perWorker.flat().sort()).toEqual([...ids].sort());
    for (const ran of perWorker) expect(ran.length).toBeGreaterThan(0);

    // The service's side: one link per row, none twice.
    const links = bulkSandbox.links(bulkSandbox.demoAccountId).filter((link) => link.targetUrl.startsWith('https://example.org/queue/run'));
    const duplicates = links.length - new Set(links.map((link) => link.targetUrl)).size;
    const requests = since(bulkSandbox, mark);
    const created = requests.filter((request) => request.status === 201).length;
    const tooMany = requests.filter((request) => request.status === 429).length;
    // The window is used by every request the service accepted: the creates and each run's quota read.
    const accepted = requests.filter((request) => request.status !== undefined && request.status < 400).length;
    const spanMs = Math.max(...requests.map((request) => request.answeredAt ?? request.receivedAt)) - requests[0]!.receivedAt;
    const rateUse = accepted / (WINDOW.limit * (1 + spanMs / (WINDOW.windowSeconds * 1000)));
    const share = tooMany / requests.length;
    console.log(
      `queue mode, ${RUNS} × ${ROWS} rows on one key (${WINDOW.limit} per ${WINDOW.windowSeconds} s), executions per worker ${perWorker.map((ran) => ran.length).join(' + ')}: ` +
        `failed items ${failed}, duplicates ${duplicates}, ${requests.length} requests, ${tooMany} × 429 (${(100 * share).toFixed(1)} %), ` +
        `${created} created in ${(spanMs / 1000).toFixed(1)} s, rate use ${rateUse.toFixed(3)}`,
    );
    expect(failed).toBe(0);
    expect(links).toHaveLength(RUNS * ROWS);
    expect(duplicates).toBe(0);
    expect(created).toBe(RUNS * ROWS);
    expect(share).toBeLessThanOrEqual(0.05);
    expect(rateUse).toBeGreaterThanOrEqual(0.9);
  }, 400_000);

  it('two executions of the campaign sheet example over the same rows at once, on the workers: one link per row, each row told that link, "created" once', async () => {
    const startedAt = new Date().toISOString();
    const sheet = await (async () => {
      await Promise.all([0, 1].map(() => fetch(main.webhookUrl(SHEET_PATH), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })));
      const done = async () => (await executionsOf(SHEET_WORKFLOW)).filter((run) => !['new', 'running', 'waiting'].includes(run.status));
      expect(await waitFor(async () => (await done()).length >= 2, 240_000, 1000)).toBe(true);
      return done();
    })();
    expect(sheet.map((run) => run.status)).toEqual(['success', 'success']);
    const outputs = await Promise.all(sheet.map(async (run) => (await execution(run.id)).data!.resultData.runData['Find or create short link']![0]!.data!.main![0]!.map((item) => item.json)));
    const onWorkers = workers.map((worker) => startedBy(worker).filter((id) => sheet.some((run) => run.id === id)).length);
    // The service's side: exactly one link per row's campaign URL.
    const links = sheetSandbox.links(sheetSandbox.demoAccountId).filter((link) => link.createdAt >= startedAt);
    const perTarget = new Map<string, number>();
    for (const link of links) perTarget.set(link.targetUrl, (perTarget.get(link.targetUrl) ?? 0) + 1);
    const created = outputs.flat().filter((json) => json.created === true).length;
    const deletes = sheetSandbox.requests.filter((request) => request.method === 'DELETE').length;
    console.log(
      `queue mode, the campaign sheet twice at once (executions per worker ${onWorkers.join(' + ')}): ${links.length} links for ${SHEET_ROWS.length} rows, ` +
        `"created" said ${created} times, ${deletes} twins removed by the callers that made them`,
    );
    expect(links).toHaveLength(SHEET_ROWS.length);
    expect([...perTarget.values()].every((count) => count === 1)).toBe(true);
    for (const output of outputs) expect(output).toHaveLength(SHEET_ROWS.length);
    // Both executions told each row the same link, and only one of them said it created it.
    expect(outputs[0]!.map((json) => json.id)).toEqual(outputs[1]!.map((json) => json.id));
    expect(created).toBe(SHEET_ROWS.length);
  }, 300_000);

  it('a bulk execution stopped through the public API while it waits for the rate limit ends within 10 s; no request follows', async () => {
    // Five requests per 20 s: after five creates the run waits up to 20 s for the next window.
    bulkSandbox.setRateLimit({ limit: 5, windowSeconds: 20 });
    const mark = bulkSandbox.requests.length;
    await postBatch('stop', 30);
    expect(await waitFor(() => since(bulkSandbox, mark, 'POST').length >= 5, 120_000)).toBe(true);
    let running: PublicExecution[] = [];
    expect(await waitFor(async () => (running = await executionsOf(BULK_WORKFLOW, 'running')).length === 1, 30_000, 500)).toBe(true);
    const [run] = running;
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const stoppedAt = Date.now();
    await main.publicApi(apiKey, 'POST', `/executions/${run!.id}/stop`);
    let status = 'running';
    expect(await waitFor(async () => !['new', 'running'].includes((status = (await execution(run!.id)).status)), 30_000, 250)).toBe(true);
    const seconds = (Date.now() - stoppedAt) / 1000;
    const onWorker = workers.findIndex((worker) => startedBy(worker).includes(run!.id));
    console.log(`queue mode, stop: execution ${run!.id} on worker ${onWorker + 1} ended as "${status}" ${seconds.toFixed(1)} s after the stop call`);
    expect(onWorker).toBeGreaterThanOrEqual(0);
    expect(status).not.toBe('success');
    expect(seconds).toBeLessThan(10);

    // n8n marks the execution canceled at once; that the stop reached the worker (through Redis) shows
    // once the window opens again: an execution still running there would send its next create then.
    const posts = since(bulkSandbox, mark, 'POST').length;
    await new Promise((resolve) => setTimeout(resolve, 22_000));
    expect(since(bulkSandbox, mark, 'POST')).toHaveLength(posts);
    expect(bulkSandbox.links(bulkSandbox.demoAccountId).filter((link) => link.targetUrl.includes('/queue/stop/')).length).toBe(posts);
  }, 300_000);

  it('the New Link trigger with workers present: every link created after activation reaches the workflow once, run on a worker', async () => {
    expect(triggerLinks).toHaveLength(5);
    const statsOf = (id: string) => since(triggerSandbox, 0, 'GET').filter((request) => request.path === `/api/v1/links/${id}/stats`).length;
    // Polls run every minute on the main instance; the workflow they start runs on a worker.
    expect(await waitFor(() => triggerLinks.every((id) => statsOf(id) > 0), 180_000, 1000)).toBe(true);
    const delivered = triggerSandbox.requests.length;
    // One more poll must not deliver them again.
    expect(await waitFor(() => since(triggerSandbox, delivered, 'GET').some((request) => request.path === '/api/v1/links'), 90_000, 1000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    expect(triggerLinks.map(statsOf)).toEqual(triggerLinks.map(() => 1));
    const statsRead = since(triggerSandbox, 0, 'GET').filter((request) => /^\/api\/v1\/links\/[^/]+\/stats$/.test(request.path));
    expect(statsRead).toHaveLength(5);
    // Normally one execution holds all five (a poll may fall between two of the creates: then two).
    const runs = await executionsOf(TRIGGER_WORKFLOW);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const run of runs) {
      expect(run).toMatchObject({ status: 'success', mode: 'trigger' });
      expect(workers.some((worker) => startedBy(worker).includes(run.id))).toBe(true);
    }
  }, 400_000);
});
