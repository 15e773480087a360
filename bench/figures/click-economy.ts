/**
 * What one Link Clicks poll costs against links in scope ("created in the last 30 days"): list requests of
 * a poll after the first, for accounts holding N links of the last days and 1 000 older ones (which must
 * cost nothing). Goal: one request per 100 links in scope, and one more for the page that shows the first
 * older link (⌊N/100⌋ + 1), never above 100 (the newest 10 000 links are watched).
 */
import { createClient } from '@shortlink/core';
import { MAX_WATCHED_LINKS } from '../../packages/core/src/polls/link-clicks/state';
import { startSandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';

export interface ClickEconomyOptions {
  inScope: readonly number[];
  log: (line: string) => void;
}

const DAY_MS = 86_400_000;

export async function clickEconomyFigures({ inScope, log }: ClickEconomyOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ seed: false, rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  try {
    const rows: ResultRow[] = [];
    for (const n of inScope) {
      const { accountId, apiKey } = sandbox.createAccount({ name: `clicks ${n}`, email: `clicks-${n}@example.org`, plan: 'business' });
      sandbox.seedLinks(accountId, 1000, { label: `old-${n}`, endAt: Date.now() - 45 * DAY_MS });
      // N links spread over the last 20 days, newest now.
      if (n > 0) sandbox.seedLinks(accountId, n, { label: `new-${n}`, spacingMs: Math.floor((20 * DAY_MS) / n) });
      const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
      const options = { mode: 'milestones' as const, milestones: [100, 1000], scope: { createdWithinDays: 30 } };
      const first = await client.pollLinkClicks(undefined, options);
      const mark = markRequests(sandbox);
      const second = await client.pollLinkClicks(first.state, options);
      const requests = requestsSince(sandbox, mark, { method: 'GET', path: '/api/v1/links' });
      const goal = Math.min(Math.floor(n / 100) + 1, MAX_WATCHED_LINKS / 100);
      const watched = Math.min(n, MAX_WATCHED_LINKS);
      log(`click economy: ${n} links in scope → ${requests} requests a poll (${second.linksInScope} watched)`);
      const result = row(`Link Clicks poll: requests with ${n} links in scope (+1 000 older)`, requests, 'requests', { op: '<=', target: goal }, null, second.linksInScope === watched && second.complete ? undefined : `watched ${second.linksInScope}, complete ${second.complete}`);
      if (second.linksInScope !== watched || !second.complete) result.met = false;
      rows.push(result);
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}
