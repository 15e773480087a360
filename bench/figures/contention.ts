/**
 * Figure: what Find or Create's convergence costs (issue 34; docs/guarantees.md, "Many callers"). After each
 * create a Find or Create looks once for twins (one page of the list when it does not lag), so that callers
 * that made the same link at the same moment settle on one. Side by side in one run, on fresh accounts:
 * - alone: `links` new links by plain Create and by Find or Create through one warm client (its link index
 *   already read), the extra requests and time per created link;
 * - with 4 contenders: 5 clients that share nothing (separate processes) start Find or Create for the same
 *   new URL together, `rounds` times: requests and time per round against the lone caller's, and the
 *   links left (one per round, or the rule failed);
 * - bulk: Find or Create over `bulkRows` new rows through one client against the scaled window (120 per
 *   6 s): rate use counts every request the service accepted (the creates and their looks).
 */
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { rateUse } from '../lib/statistics';
import { countStatuses } from '../lib/status-counter';
import { WINDOW } from './bulk-create';

export interface ContentionOptions {
  links: number;
  rounds: number;
  bulkRows: number;
  log: (line: string) => void;
}

function account(sandbox: Sandbox, label: string): { baseUrl: string; apiKey: string; accountId: string } {
  const { apiKey, accountId } = sandbox.createAccount({ name: `Bench ${label}`, email: `${label}@bench.example`, plan: 'business' });
  sandbox.seedLinks(accountId, 250, { spacingMs: 1_000, endAt: Date.now() - 3_600_000, label });
  return { baseUrl: sandbox.baseUrl, apiKey, accountId };
}

/** Requests the sandbox received and the time taken while `work` ran. */
async function measured(sandbox: Sandbox, work: () => Promise<void>): Promise<{ requests: number; ms: number }> {
  const mark = sandbox.requests.length;
  const started = performance.now();
  await work();
  return { requests: sandbox.requests.length - mark, ms: performance.now() - started };
}

export async function contentionFigures({ links, rounds, bulkRows, log }: ContentionOptions): Promise<ResultRow[]> {
  const open = await startSandbox({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
  const paced = await startSandbox({ rateLimit: { ...WINDOW } });
  try {
    // Alone, through one warm client each (the walk of the account is not what is measured).
    log(`contention: ${links} new links alone, Create and Find or Create …`);
    const urls = (label: string, n: number) => Array.from({ length: n }, (_, i) => `https://example.org/${label}/${i}?utm_source=newsletter`);
    const warm = async (label: string): Promise<ShortLinkClient> => {
      const client = createClient({ ...account(open, label), shareAcrossClients: false });
      await client.findLinks({ targetUrl: `https://example.org/${label}/warm-up` });
      return client;
    };
    const creating = await warm('alone-create');
    const plain = await measured(open, async () => {
      for (const targetUrl of urls('alone-create', links)) await creating.createLink({ targetUrl });
    });
    const finding = await warm('alone-foc');
    let createdAlone = 0;
    const foc = await measured(open, async () => {
      for (const targetUrl of urls('alone-foc', links)) if ((await finding.findOrCreateLink({ targetUrl })).created) createdAlone++;
    });
    const extraPerLink = (foc.requests - plain.requests) / links;
    const timeRatio = foc.ms / plain.ms;
    log(`  Create: ${plain.requests} requests in ${plain.ms.toFixed(0)} ms; Find or Create: ${foc.requests} requests in ${foc.ms.toFixed(0)} ms, ${createdAlone} created`);

    // With 4 contenders: five separate clients, one new URL each round.
    log(`contention: ${rounds} rounds of 5 callers at once …`);
    const target = account(open, 'contended');
    let leftOver = 0;
    let createdSaid = 0;
    let disagreed = 0;
    const contended = await measured(open, async () => {
      for (let round = 0; round < rounds; round++) {
        const targetUrl = `https://example.org/contended/${round}?utm_source=newsletter`;
        const results = await Promise.all(Array.from({ length: 5 }, () => createClient({ ...target, shareAcrossClients: false }).findOrCreateLink({ targetUrl })));
        createdSaid += results.filter((r) => r.created).length;
        if (new Set(results.map((r) => String(r.link.id))).size !== 1) disagreed++;
        leftOver += open.links(target.accountId).filter((link) => link.targetUrl === targetUrl).length - 1;
      }
    });
    // A new client walks the account (3 pages) before it finds nothing: the lone caller's rounds pay the same walk.
    const lone = await measured(open, async () => {
      const single = account(open, 'lone');
      for (let round = 0; round < rounds; round++) await createClient({ ...single, shareAcrossClients: false }).findOrCreateLink({ targetUrl: `https://example.org/lone/${round}` });
    });
    log(`  contended: ${contended.requests} requests in ${contended.ms.toFixed(0)} ms; lone: ${lone.requests} in ${lone.ms.toFixed(0)} ms; ${leftOver} extra links, ${disagreed} disagreements`);

    // Bulk Find or Create against the scaled window.
    log(`contention: bulk Find or Create over ${bulkRows} new rows, window ${WINDOW.limit}/${WINDOW.windowSeconds} s …`);
    const bulkTarget = account(paced, 'bulk-foc');
    const bulkClient = createClient({ ...bulkTarget, shareAcrossClients: false });
    const counter = countStatuses(paced.baseUrl);
    const started = performance.now();
    let failed = 0;
    for (const targetUrl of urls('bulk-foc', bulkRows)) await bulkClient.findOrCreateLink({ targetUrl }).catch(() => failed++);
    const spanMs = performance.now() - started;
    counter.stop();
    const accepted = counter.total() - counter.count(429);
    const bulkUse = rateUse(accepted, spanMs, WINDOW.limit, WINDOW.windowSeconds * 1000);
    log(`  ${counter.total()} requests (${counter.count(429)}×429), ${failed} failed, in ${(spanMs / 1000).toFixed(1)} s`);

    const perRound = (m: { requests: number; ms: number }) => m.requests / rounds;
    return [
      row('Find or Create, alone: extra requests per created link (its look for twins)', extraPerLink, 'requests', { op: '<=', target: 1 }, 0, `${foc.requests} requests for ${links} links (${createdAlone} created) vs ${plain.requests} by plain Create, warm clients`),
      row('Find or Create, alone: time per created link ÷ plain Create', timeRatio, '×', null, 1, `${(foc.ms / links).toFixed(1)} vs ${(plain.ms / links).toFixed(1)} ms per link, sandbox on loopback, no lag`),
      row('Find or Create, 5 callers at once: requests per round', perRound(contended), 'requests', null, Number(perRound(lone).toFixed(1)), `${rounds} rounds, new clients (each walks the account once); baseline: one caller per round`),
      row('Find or Create, 5 callers at once: time per round ÷ one caller', contended.ms / lone.ms, '×', null, 1, `${(contended.ms / rounds).toFixed(0)} vs ${(lone.ms / rounds).toFixed(0)} ms per round`),
      row('Find or Create, 5 callers at once: links left beyond one per URL', leftOver, 'links', { op: '=', target: 0 }, null, `${disagreed} rounds with callers told different ids; "created" said ${createdSaid} times in ${rounds} rounds`),
      row(`Find or Create, bulk of ${bulkRows} new rows: rate use`, bulkUse, 'achieved/allowed', { op: '>=', target: 0.95 }, null, `${accepted} requests accepted (creates and their looks) in ${(spanMs / 1000).toFixed(1)} s, ${counter.count(429)}×429, ${failed} failed`),
    ];
  } finally {
    await open.close();
    await paced.close();
  }
}
