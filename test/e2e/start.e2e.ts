/**
 * `npm start` as a newcomer runs it (through npm, Ctrl-C to its process group), with `--plan-links 20` as the
 * README says to see the quota stop: the playground comes up, prints the editor URL, the login, the sandbox API
 * key, the plan quota and the `zapier-platform invoke` lines; the editor logs in, holds the credential and
 * the example workflows, and runs an example against the sandbox; a printed Zapier line works.
 * Then the newcomer's path in the real editor (Chromium, support/browser.ts): the campaign sheet, the weekly
 * report, the QR code, the 200 product pages stopped by the plan quota — its wall time, the click path without
 * typing, is recorded in test/e2e/artifacts/newcomer/wall-time.json. Ctrl-C stops everything; a second start
 * without --plan-links keeps the examples as imported (no second import), and the rerun of the stopped run
 * makes only the missing links. Last, every example runs twice in that editor (its Google Sheets and Slack steps
 * are the playground's stand-ins): the second run makes no link and appends or posts nothing, or the example's
 * first note says why it is not safe to rerun.
 */
import { execSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExampleWorkflows } from '../../scripts/n8n/examples';
import { N8nInstance } from '../../scripts/n8n/instance';
import { standInKind } from '../../scripts/n8n/stand-ins';
import { launchBrowser, missingBrowser, screenshotFolder, type Browser } from './support/browser';
import { cachedN8nRuntime, node24Env, repoRoot } from '../../scripts/n8n/runtime';
import { freePort, waitFor } from './support/ports';

let playground: ChildProcessWithoutNullStreams;
let stateDir: string;
let output = '';
let editorPort: number;
let sandboxPort: number;

const line = (label: string) => new RegExp(`^\\s*${label}\\s+(.+)$`, 'm').exec(output)?.[1]?.trim();

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

const PLAN_LINKS = 20;

/** `npm start -- …` through npm, as a newcomer types it (see beforeAll); resolves when it is ready. */
async function startPlayground(extra: string[]): Promise<void> {
  output = '';
  // npm then exports its settings (ignore-scripts among them) to the playground, which must still install and
  // start n8n. Its own process group, so that Ctrl-C below reaches every process of it, as a terminal's does.
  playground = spawn('npm', ['start', '--', '--port', String(editorPort), '--sandbox-port', String(sandboxPort), ...extra], {
    cwd: repoRoot,
    env: { ...process.env, SHORTLINK_PLAYGROUND_DIR: stateDir },
    detached: true,
  });
  playground.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  playground.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = await waitFor(() => output.includes('Press Ctrl-C to stop everything.') || playground.exitCode !== null, 240_000, 500);
  if (!ready || playground.exitCode !== null) throw new Error(`npm start did not get ready:\n${output.slice(-4000)}`);
}

beforeAll(async () => {
  const missing = missingBrowser();
  if (missing) throw new Error(missing);
  stateDir = mkdtempSync(join(tmpdir(), 'shortlink-e2e-playground-'));
  editorPort = await freePort();
  sandboxPort = await freePort();
  await startPlayground(['--plan-links', String(PLAN_LINKS)]);
}, 300_000);

/** npm ends by the signal it was sent (as a shell's Ctrl-C does): then exitCode stays null. */
const ended = () => playground.exitCode !== null || playground.signalCode !== null;

afterAll(async () => {
  if (playground && !ended()) {
    process.kill(-playground.pid!, 'SIGINT');
    await waitFor(ended, 30_000);
  }
  rmSync(stateDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints the editor URL, the login, the sandbox API key, the plan quota and the Zapier lines', () => {
    expect(line('n8n editor')).toBe(`http://127.0.0.1:${editorPort}`);
    expect(line('plan quota')).toBe(`${PLAN_LINKS} links a month, 3 used (--plan-links <n> changes it)`);
    expect(output).toMatch(/Imported \d+ examples \(Google Sheets and Slack steps as playground stand-ins; the trigger example switched off\)/);
    expect(line('login')).toMatch(/^\S+@\S+ \/ \S+$/);
    expect(line('API key:')).toBe('playground-demo-key');
    expect(output).toContain(`authData_baseUrl=http://127.0.0.1:${sandboxPort} npx zapier-platform invoke auth test`);
  });

  it('opens an editor with the credential and every example workflow, and runs an example against the sandbox', async () => {
    const [email, password] = line('login')!.split(' / ') as [string, string];
    const n8n = new N8nInstance({ runtime: cachedN8nRuntime()!, userFolder: join(stateDir, 'n8n'), port: editorPort });
    expect((await fetch(n8n.editorUrl)).status).toBe(200);
    const cookie = await n8n.login(email, password);

    const workflows = (await (await fetch(`${n8n.editorUrl}/rest/workflows`, { headers: { cookie } })).json()) as { data: Array<{ id: string; name: string }> };
    expect(workflows.data.map((workflow) => workflow.id).sort()).toEqual(loadExampleWorkflows().map((example) => example.workflow.id).sort());
    const credentials = (await (await fetch(`${n8n.editorUrl}/rest/credentials`, { headers: { cookie } })).json()) as { data: Array<{ name: string; type: string }> };
    expect(credentials.data).toEqual([expect.objectContaining({ name: 'Short Link sandbox', type: 'shortLinkApi' })]);

    const sandbox = `http://127.0.0.1:${sandboxPort}/api/v1`;
    const headers = { Authorization: 'Bearer playground-demo-key' };
    const before = ((await (await fetch(`${sandbox}/me`, { headers })).json()) as { usage: { links: number } }).usage.links;
    const execution = await n8n.runInEditor(cookie, 'slManageLink', "When clicking 'Execute workflow'");
    expect(execution.status).toBe('success');
    const page = (await (await fetch(`${sandbox}/links?limit=1`, { headers })).json()) as { data: Array<{ title: string; targetUrl: string }> };
    expect(page.data[0]).toMatchObject({ title: 'Summer sale (extended)', targetUrl: expect.stringContaining('utm_campaign=summer_sale') });
    const after = ((await (await fetch(`${sandbox}/me`, { headers })).json()) as { usage: { links: number } }).usage.links;
    expect(after).toBe(before + 1);
  });

  it('the printed Zapier lines (build, then invoke auth test) work against the same sandbox', () => {
    const lines = output.split('\n').map((text) => text.trim());
    const build = lines.find((text) => text.startsWith('cd packages/zapier'))!;
    const authTest = lines.find((text) => text.includes('invoke auth test'))!;
    // Typed one after the other in one shell, from the repository root, as a newcomer would.
    const result = execSync(`${build}\n${authTest}`, { cwd: repoRoot, shell: '/bin/bash', env: node24Env({ DISABLE_ZAPIER_ANALYTICS: '1' }), encoding: 'utf8', timeout: 120_000 });
    expect(result).toContain('"plan"');
    expect(result).toContain('"business"');
  });

  it('Ctrl-C stops n8n and the sandbox', async () => {
    await stopPlayground();
    // The playground itself stopped cleanly; npm then ends as the signal says (exit 0 or by SIGINT).
    expect(output).toContain('Stopped.');
    expect([0, 'SIGINT']).toContain(playground.exitCode ?? playground.signalCode);
    expect(await answers(`http://127.0.0.1:${editorPort}/healthz`)).toBe(false);
    expect(await answers(`http://127.0.0.1:${sandboxPort}/api/v1/openapi.json`)).toBe(false);
  });
});

async function stopPlayground(): Promise<void> {
  process.kill(-playground.pid!, 'SIGINT');
  expect(await waitFor(ended, 30_000)).toBe(true);
}

const SANDBOX_KEY = { Authorization: 'Bearer playground-demo-key' };
/** A read of the playground's sandbox with its demo key, waiting out the key's rate limit (the runs share it). */
async function sandboxApi<T>(path: string): Promise<T> {
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${sandboxPort}/api/v1${path}`, { headers: SANDBOX_KEY });
    if (response.status !== 429) return (await response.json()) as T;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)));
  }
}

/** Every link of the playground's demo account, by paging. */
async function allLinks(): Promise<Array<{ id: string; targetUrl: string }>> {
  const links: Array<{ id: string; targetUrl: string }> = [];
  let cursor: string | null = null;
  do {
    const page: { data: Array<{ id: string; targetUrl: string }>; nextCursor: string | null } = await sandboxApi(`/links?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    links.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return links;
}

let n8nApiKey: string | undefined;
/** Items that reached each node of an execution (n8n's public API with its data; an API key made once). */
async function itemsPerNode(cookie: string, executionId: string): Promise<Record<string, number>> {
  n8nApiKey ??= await editorOf().createApiKey(cookie, 'newcomer e2e', ['execution:read', 'execution:list']);
  const execution = await editorOf().publicApi<{ data: { resultData: { runData: Record<string, Array<{ data?: { main?: Array<unknown[] | null> } }>> } } }>(n8nApiKey, 'GET', `/executions/${executionId}?includeData=true`);
  return Object.fromEntries(Object.entries(execution.data.resultData.runData).map(([name, runs]) => [name, runs.reduce((sum, run) => sum + (run.data?.main?.[0]?.length ?? 0), 0)]));
}

/** The editor's sign-in as the README's login gives it. */
async function signIn(page: Browser['page']): Promise<void> {
  await page.goto(`${editorOf().editorUrl}/signin`);
  await page.fill('input[name=emailOrLdapLoginId]', 'playground@example.com');
  await page.fill('input[name=password]', 'Playground-1');
  await page.click('[data-test-id=form-submit-button]');
  await page.waitForURL(/\/home\//);
}

const editorOf = () => new N8nInstance({ runtime: cachedN8nRuntime()!, userFolder: join(stateDir, 'n8n'), port: editorPort });
const example = (id: string) => loadExampleWorkflows().find((found) => found.workflow.id === id)!.workflow;
const BULK = 'slBulkShorten';

describe("the newcomer's path in the editor (Chromium)", () => {
  let browser: Browser;
  const shot = screenshotFolder(join(repoRoot, 'test', 'e2e', 'artifacts', 'newcomer'));
  const clickPathMs: number[] = [];

  beforeAll(async () => {
    await startPlayground(['--plan-links', String(PLAN_LINKS)]);
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(60_000);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** The newest executions of a workflow, newest first (the editor's own list). */
  async function executionsOf(id: string, cookie: string): Promise<Array<{ id: string; status: string }>> {
    const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
    const list = (await (await fetch(`${editorOf().editorUrl}/rest/executions?filter=${filter}`, { headers: { cookie } })).json()) as { data: { results: Array<{ id: string; status: string }> } };
    return list.data.results;
  }

  /**
   * Opens a workflow, clicks Execute workflow and waits for the new execution to end: its status, its words (the
   * execution as the editor's REST gives it) and the time from opening to the end, which the wall time adds up.
   */
  async function runInBrowser(id: string, name: string): Promise<{ status: string; text: string; ms: number; executionId: string; cookie: string }> {
    const { page } = browser;
    const cookie = await editorOf().login('playground@example.com', 'Playground-1');
    const known = (await executionsOf(id, cookie)).length;
    const started = Date.now();
    await page.goto(`${editorOf().editorUrl}/workflow/${id}`);
    await page.locator('[data-test-id=execute-workflow-button]').first().click();
    let newest: { id: string; status: string } | undefined;
    await waitFor(async () => {
      const list = await executionsOf(id, cookie);
      newest = list.length > known ? list[0] : undefined;
      return newest !== undefined && !['new', 'running', 'waiting', 'unknown'].includes(newest.status);
    }, 600_000, 500);
    const ms = Date.now() - started;
    clickPathMs.push(ms);
    await page.waitForTimeout(500);
    await shot(page, name);
    if (!newest) throw new Error(`${id}: the click started no execution`);
    const text = await (await fetch(`${editorOf().editorUrl}/rest/executions/${newest.id}`, { headers: { cookie } })).text();
    return { status: newest.status, text, ms, executionId: newest.id, cookie };
  }

  it('signs in', async () => {
    await signIn(browser.page);
    await shot(browser.page, '01-signed-in');
  });

  it('the campaign sheet (sample rows, stand-ins for Google Sheets and Slack): ten links', async () => {
    const before = (await allLinks()).length;
    expect((await runInBrowser('slCampaignSheet', '02-campaign-sheet')).status).toBe('success');
    expect((await allLinks()).length).toBe(before + 10);
  });

  it("last week's click report has rows (the seeded clicks cover four weeks)", async () => {
    const result = await runInBrowser('slWeeklyClicks', '03-weekly-report');
    expect(result.status).toBe('success');
    // The sheet's stand-in got one row per link clicked last week: the three seeded links.
    expect((await itemsPerNode(result.cookie, result.executionId))['Add rows to click report']).toBe(3);
  });

  it('the QR code of a flyer link', async () => {
    expect((await runInBrowser('slQrCodeFlyer', '04-qr-code')).status).toBe('success');
  });

  it('200 product pages stop at the plan quota, saying how to finish', async () => {
    const result = await runInBrowser(BULK, '05-quota-stop');
    expect(result.status).toBe('error');
    const me = await sandboxApi<{ usage: { links: number }; plan: { linkQuota: number } }>('/me');
    expect(me.usage.links).toBe(me.plan.linkQuota);
    // The core's words for the stop, as the editor has them: how to finish (rerun; nothing made twice).
    expect(result.text).toMatch(/Rerun it/);
    const total = clickPathMs.reduce((sum, ms) => sum + ms, 0);
    const folder = join(repoRoot, 'test', 'e2e', 'artifacts', 'newcomer');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'wall-time.json'), `${JSON.stringify({ clickPathSeconds: total / 1000, steps: clickPathMs.map((ms) => ms / 1000) }, null, 2)}\n`);
    process.stderr.write(`newcomer's path: the click path took ${(total / 1000).toFixed(1)} s (${clickPathMs.map((ms) => (ms / 1000).toFixed(1)).join(' + ')} s)\n`);
  });

  it('a restart without --plan-links imports nothing again (the examples as the user left them)', async () => {
    await stopPlayground();
    await startPlayground([]);
    expect(output).toMatch(/The examples were imported on .+: your edits are kept/);
    expect(line('plan quota')).toMatch(/^1000000 links a month/);
  }, 300_000);
});

describe('every example twice in the playground', () => {
  /** Examples started by a trigger poll: their reruns (each link once) are proven by n8n.e2e.ts and examples.e2e.ts. */
  const TRIGGERED = ['slNewLinkTrig', 'slNewLinkSlack'];
  // The stopped bulk run is rerun last (below), in the editor, and then once more here.
  const examples = loadExampleWorkflows().map((found) => found.workflow).filter((workflow) => !TRIGGERED.includes(workflow.id!) && workflow.id !== BULK);
  let cookie: string;

  beforeAll(async () => {
    cookie = await editorOf().login('playground@example.com', 'Playground-1');
  });


  it.each(examples.map((workflow) => [workflow.name, workflow.id!]))('%s', async (_name, id) => {
    const workflow = example(id);
    const trigger = workflow.nodes.find((node) => /Trigger$|manualTrigger$/i.test(node.type) || node.type.endsWith('.scheduleTrigger'))!;
    const note = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
    const marked = /not safe to rerun/i.test(String(note?.parameters.content ?? ''));
    await editorOf().runInEditor(cookie, id, trigger.name, 600_000);
    const linksBefore = (await allLinks()).length;
    const second = await editorOf().runInEditor(cookie, id, trigger.name, 600_000);
    const made = (await allLinks()).length - linksBefore;
    const reached = await itemsPerNode(cookie, second.executionId);
    const sentAgain = workflow.nodes.filter((node) => ['append', 'post'].includes(standInKind(node) ?? '') && (reached[node.name] ?? 0) > 0).map((node) => node.name);
    const safe = made <= 0 && sentAgain.length === 0;
    // Safe to rerun, or the first note says why not (and a note saying so on a safe example would mislead).
    expect({ id, status: second.status, safe, marked, made, sentAgain }).toEqual({ id, status: 'success', safe: !marked, marked, made, sentAgain });
  }, 1_200_000);
});

describe('the run stopped by the quota, rerun in the editor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(60_000);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('makes exactly the missing links; one more run makes none', async () => {
    const { page } = browser;
    await signIn(page);
    const cookie = await editorOf().login('playground@example.com', 'Playground-1');
    const filter = encodeURIComponent(JSON.stringify({ workflowId: BULK }));
    const executions = async () => ((await (await fetch(`${editorOf().editorUrl}/rest/executions?filter=${filter}`, { headers: { cookie } })).json()) as { data: { results: Array<{ status: string }> } }).data.results;
    const before = await allLinks();
    const known = (await executions()).length;
    await page.goto(`${editorOf().editorUrl}/workflow/${BULK}`);
    await page.locator('[data-test-id=execute-workflow-button]').first().click();
    expect(await waitFor(async () => (await executions()).length > known && !['new', 'running', 'waiting'].includes((await executions())[0]!.status), 600_000, 1000)).toBe(true);
    expect((await executions())[0]!.status).toBe('success');
    await screenshotFolder(join(repoRoot, 'test', 'e2e', 'artifacts', 'newcomer-rerun'))(page, '06-rerun-finishes');
    const after = await allLinks();
    const bulkTargets = after.map((link) => link.targetUrl).filter((url) => url.includes('/products/item-'));
    expect(bulkTargets).toHaveLength(200);
    expect(new Set(bulkTargets).size).toBe(200);
    expect(after.length - before.length).toBe(200 - before.filter((link) => link.targetUrl.includes('/products/item-')).length);
    // Safe to rerun: once more, nothing new.
    const again = await editorOf().runInEditor(cookie, BULK, "When clicking 'Execute workflow'", 600_000);
    expect(again.status).toBe('success');
    expect((await allLinks()).length).toBe(after.length);
  }, 1_200_000);
});
