/**
 * What a Campaign Report costs at the service's 120 requests a minute, over 10, 100 and 1 000 links, side
 * by side with the loop a user builds today (Get Many links with "Return All", then Get Stats per link,
 * then a Code node that fills the missing days and adds up: no requests of its own). Time is the waiting
 * the rate limit imposes: the sandbox and the client share one virtual clock whose sleeps pass at once, so
 * the minutes are what a real run at 120/min spends waiting (network time comes on top, the same for both).
 * A last row: the same 1 000-link report in a time-limited step (Zapier's 25 s) is refused before any
 * statistics request, saying what to narrow, instead of returning part of a table.
 */
import { createClient, InputError, type ShortLinkClient } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';

export interface ReportFiguresOptions {
  sizes: readonly number[];
  log: (line: string) => void;
}

const report = operationByKey('report.campaign');

/** The loop of today's nodes: every link of the account, then Get Stats for each one of the campaign. */
async function userLoop(client: ShortLinkClient, campaign: string): Promise<number> {
  let clicks = 0;
  const links = [];
  for await (const link of client.iterateLinks({ pageSize: 100 })) links.push(link);
  for (const link of links.filter((l) => String(l.targetUrl).includes(`utm_campaign=${campaign}`))) {
    const stats = await client.getLinkStats(link.id);
    clicks += stats.clicksByDay.reduce((t, d) => t + d.clicks, 0);
  }
  return clicks;
}

async function measure(sandbox: Sandbox, clock: { t: number }, run: () => Promise<unknown>): Promise<{ requests: number; minutes: number }> {
  const mark = markRequests(sandbox);
  const started = clock.t;
  await run();
  return { requests: requestsSince(sandbox, mark), minutes: (clock.t - started) / 60_000 };
}

export async function reportFigures({ sizes, log }: ReportFiguresOptions): Promise<ResultRow[]> {
  const clock = { t: Date.now() };
  const sandbox = await startSandbox({ seed: false, now: () => clock.t, rateLimit: { limit: 120, windowSeconds: 60 } });
  try {
    const rows: ResultRow[] = [];
    for (const n of sizes) {
      const { accountId, apiKey } = sandbox.createAccount({ name: `report ${n}`, email: `report-${n}@example.org`, plan: 'business' });
      const client = (): ShortLinkClient => createClient({ baseUrl: sandbox.baseUrl, apiKey, now: () => clock.t, sleep: async (ms) => void (clock.t += ms), maxWaitMs: 120_000 });
      const made = createClient({ baseUrl: sandbox.baseUrl, apiKey, now: () => clock.t, sleep: async (ms) => void (clock.t += ms), maxWaitMs: 120_000 });
      for (let i = 0; i < n; i++) await made.createLink({ targetUrl: `https://example.org/p${i}?utm_campaign=bench&utm_source=s${i % 3}`, title: `Bench ${i}` });
      sandbox.seedLinks(accountId, 100, { label: 'other' }); // links of other campaigns the walk passes
      clock.t += 61_000; // a fresh rate-limit window for each measurement
      const ours = await measure(sandbox, clock, () => runOperation(report, client(), { selectBy: 'campaign', campaign: 'bench', shape: 'campaignDay' }, { now: () => clock.t }));
      clock.t += 61_000;
      const theirs = await measure(sandbox, clock, () => userLoop(client(), 'bench'));
      log(`reports: ${n} links → report ${ours.requests} requests / ${ours.minutes.toFixed(2)} min; loop ${theirs.requests} / ${theirs.minutes.toFixed(2)} min`);
      rows.push(row(`Campaign Report over ${n} links: requests (loop: Get Many + Get Stats per link)`, ours.requests, 'requests', { op: '<=', target: theirs.requests }, theirs.requests, 'one list walk (pages of 100) + one stats request per link, as the loop'));
      rows.push(row(`Campaign Report over ${n} links: minutes waiting at 120/min (loop)`, ours.minutes, 'min', { op: '<=', target: theirs.minutes + 0.01 }, Number(theirs.minutes.toFixed(2)), 'virtual clock shared by sandbox and client; the loop also needs a Code node to fill days and add up'));
      if (n === Math.max(...sizes)) {
        clock.t += 61_000;
        let refused = '';
        const limited = await measure(sandbox, clock, async () => {
          try {
            await runOperation(report, client(), { selectBy: 'campaign', campaign: 'bench' }, { now: () => clock.t, timeLimitMs: 25_000 });
          } catch (error) {
            if (error instanceof InputError) refused = error.message;
            else throw error;
          }
        });
        log(`reports: time-limited step over ${n} links → ${refused ? 'refused' : 'NOT refused'} after ${limited.requests} requests: ${refused.slice(0, 160)}`);
        const limitedRow = row(`Campaign Report over ${n} links in a 25 s step: requests before the refusal`, limited.requests, 'requests', { op: '<=', target: Math.ceil((n + 100) / 100) + 1 }, null, refused ? 'refused with what to narrow; no statistics read' : 'was not refused');
        if (!refused) limitedRow.met = false;
        rows.push(limitedRow);
      }
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}
