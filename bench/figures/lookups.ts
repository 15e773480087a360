/**
 * Figure 6 (issue 13): lookups that hold at any account size, each beside today's behaviour measured in the
 * same run (bench/baselines/find-or-create-v1.ts: a 20-page scan per lookup, "none" beyond it).
 * - n8n Find or Create over `rows` new campaign URLs (one execution, the built node through its harness) on
 *   an account of `accountLinks` links seeded straight into the store: requests and duplicates; then the
 *   rerun of the same rows: creates and requests. Today's algorithm is measured on the first `sample` rows
 *   of the same sheet (its cost grows linearly per row) and projected to all rows; the note says so.
 * - Zapier Find Link on a 10 000-link account whose answers take `latencyMs` each (a real service's pace):
 *   the target among the oldest; every invocation ends with the right answer or the retryable "could not
 *   finish" error within the 25 s budget; then the cached index's requests over 100 finds.
 * The sandbox's rate window is scaled (120 requests a second instead of a minute): counts, not time.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { findOrCreateV1, findV1 } from '../baselines/find-or-create-v1';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';
import { loadN8nHarness } from '../hosts/n8n-host';
import { startZapierWorker } from '../hosts/zapier-host';

export interface LookupOptions {
  accountLinks: number;
  rows: number;
  sample: number;
  finds: number;
  latencyMs: number;
  log: (line: string) => void;
}

const sheetUrl = (i: number) => `https://example.org/campaign/${i}?utm_source=sheet`;

function account(sandbox: Sandbox, label: string, links: number) {
  const made = sandbox.createAccount({ name: label, email: `${label}@example.org`, plan: 'business' });
  sandbox.seedLinks(made.accountId, links, { label, endAt: Date.now() - 3600_000 });
  return { ...made, target: { baseUrl: sandbox.baseUrl, apiKey: made.apiKey } };
}

function duplicates(sandbox: Sandbox, accountId: string): number {
  const seen = new Map<string, number>();
  for (const link of sandbox.links(accountId)) seen.set(link.targetUrl, (seen.get(link.targetUrl) ?? 0) + 1);
  return [...seen.values()].reduce((sum, n) => sum + (n - 1), 0);
}

async function n8nRows(options: LookupOptions, sandbox: Sandbox): Promise<ResultRow[]> {
  const { rows, sample, accountLinks, log } = options;
  const { runNode } = loadN8nHarness();

  // Today's algorithm on the first `sample` rows of the sheet, in an account of its own, run twice.
  const old = account(sandbox, 'lookupv1', accountLinks);
  const oldClient = createClient(old.target);
  let mark = markRequests(sandbox);
  for (let i = 0; i < sample; i++) await findOrCreateV1(oldClient, sheetUrl(i));
  const oldFirstPerRow = requestsSince(sandbox, mark) / sample;
  // Before the rerun the rest of the sheet's links exist (made straight in the store, as the first run would).
  sandbox.seedLinks(old.accountId, rows - sample, { label: 'lookupv1rest' });
  mark = markRequests(sandbox);
  let oldRerunCreates = 0;
  for (let i = 0; i < sample; i++) if ((await findOrCreateV1(createClient(old.target), sheetUrl(i))).created) oldRerunCreates++;
  const oldRerunPerRow = requestsSince(sandbox, mark) / sample;
  log(`lookups: today's Find or Create, ${sample} rows: ${oldFirstPerRow} requests a row; rerun ${oldRerunCreates} creates, ${oldRerunPerRow} requests a row`);

  const now = account(sandbox, 'lookupv2', accountLinks);
  const parameters = (itemIndex: number) => ({ resource: 'link', operation: 'findOrCreate', targetUrl: `https://example.org/campaign/${itemIndex}`, utm: { source: 'sheet' } });
  const items = Array.from({ length: rows }, (_, i) => ({ row: i }));
  mark = markRequests(sandbox);
  const first = await runNode({ credentials: now.target, items, parameters });
  const firstRequests = requestsSince(sandbox, mark);
  const firstCreates = first.filter((item) => item.json.created === true).length;
  mark = markRequests(sandbox);
  const rerun = await runNode({ credentials: now.target, items, parameters });
  const rerunRequests = requestsSince(sandbox, mark);
  const rerunCreates = rerun.filter((item) => item.json.created === true).length;
  log(`lookups: n8n Find or Create ${rows} rows: ${firstRequests} requests (${firstCreates} creates); rerun ${rerunRequests} requests, ${rerunCreates} creates`);

  const limit = Math.floor((accountLinks / 100 + rows) * 1.01);
  const projected = (perRow: number) => `${Math.round(perRow * rows)} (${sample}-row sample × ${rows / sample})`;
  return [
    row(`lookups: n8n Find or Create, ${rows} new rows on ${accountLinks} links — requests`, firstRequests, 'requests', { op: '<=', target: limit }, projected(oldFirstPerRow),
      `goal ${accountLinks}/100 + ${rows} + 1 %; today: a 20-page scan per row before each create`),
    row(`lookups: n8n Find or Create, ${rows} rows run twice — duplicates made`, duplicates(sandbox, now.accountId), 'links', { op: '=', target: 0 }, `${duplicates(sandbox, old.accountId)} (in the ${sample}-row sample)`),
    row(`lookups: n8n Find or Create rerun of the ${rows} rows — creates`, rerunCreates, 'links', { op: '=', target: 0 }, projected(oldRerunCreates / sample),
      `today: a row whose link is older than the newest 2 000 is created again`),
    row(`lookups: n8n Find or Create rerun of the ${rows} rows — requests`, rerunRequests, 'requests', { op: '<=', target: Math.ceil((accountLinks + rows) / 100) + 1 }, projected(oldRerunPerRow)),
  ];
}

async function zapierRows(options: LookupOptions, sandbox: Sandbox): Promise<ResultRow[]> {
  const { finds, latencyMs, log } = options;
  const acct = account(sandbox, 'lookupzap', 10_000);
  const oldest = sandbox.links(acct.accountId).sort((a, b) => Number(a.id) - Number(b.id));
  const worker = startZapierWorker();
  const bundle = (inputData: Record<string, unknown>) => ({ authData: acct.target, inputData });
  sandbox.setFaults({ latencyMs });
  try {
    // Today: one invocation, a 20-page scan, "none" for a link among the oldest.
    const todayAnswer = await findV1(createClient(acct.target), oldest[0]!.targetUrl);

    const times: number[] = [];
    let retries = 0;
    let answer: Array<{ id: string }> | undefined;
    for (let attempt = 0; attempt < 10 && !answer; attempt++) {
      const started = Date.now();
      try {
        answer = (await worker.invoke('searches', 'find_link', bundle({ targetUrl: oldest[0]!.targetUrl }))) as Array<{ id: string }>;
      } catch (error) {
        if (!/could not finish/.test((error as Error).message)) throw error;
        retries++;
      }
      times.push(Date.now() - started);
    }
    const wrong = answer?.[0]?.id === oldest[0]!.id ? 0 : 1;
    sandbox.setFaults(undefined);

    const mark = markRequests(sandbox);
    let misses = 0;
    for (let i = 0; i < finds; i++) {
      const wanted = oldest[(i * 97) % oldest.length]!;
      const found = (await worker.invoke('searches', 'find_link', bundle({ targetUrl: wanted.targetUrl }))) as Array<{ id: string }>;
      if (found[0]?.id !== wanted.id) misses++;
    }
    const cached = requestsSince(sandbox, mark);
    const todayMark = markRequests(sandbox);
    let todayMisses = 0;
    for (let i = 0; i < finds; i++) {
      const wanted = oldest[(i * 97) % oldest.length]!;
      if ((await findV1(createClient(acct.target), wanted.targetUrl))?.id !== wanted.id) todayMisses++;
    }
    const today = requestsSince(sandbox, todayMark);
    log(`lookups: Zapier find on 10 000 links: ${times.length} invocations (${retries} retryable), longest ${Math.max(...times)} ms; ${finds} finds from the cache: ${cached} requests, ${misses} wrong (today ${today}, ${todayMisses} wrong)`);
    return [
      row('lookups: Zapier find, 10 000 links, the oldest — longest invocation', Math.max(...times) / 1000, 's', { op: '<=', target: 25 }, null,
        `${times.length} invocations (${retries} ended with the retryable "could not finish" error while the index was built), ${latencyMs} ms a request`),
      row('lookups: Zapier find, 10 000 links, the oldest — wrong "none" answers', wrong, 'answers', { op: '=', target: 0 }, todayAnswer ? 0 : 1),
      row(`lookups: Zapier find, ${finds} finds from the cached index — requests`, cached, 'requests', null, today,
        `2 a find: one GET confirms the hit, one new-links request looks for links created since; wrong answers: ${misses} (today ${todayMisses} of ${finds}: a 20-page scan each)`),
    ];
  } finally {
    sandbox.setFaults(undefined);
    worker.close();
  }
}

export async function lookupFigures(options: LookupOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 1 } });
  try {
    return [...(await n8nRows(options, sandbox)), ...(await zapierRows(options, sandbox))];
  } finally {
    await sandbox.close();
  }
}
