/**
 * What a lost answer costs (issue 26): the extra requests one create spends when its answer is lost, on an
 * account of `accountLinks` links, with the list served newest first and oldest first. Two stories per
 * order: the link was stored and its answer lost (a gateway's 502 after the write: the two looks find it),
 * and nothing was stored (a reset before the write: two looks, then the one resend). "Extra" is every
 * request beyond the one POST a create costs when nothing goes wrong. The baseline is the rule before
 * issue 26 (one look at the top of the list, newest first assumed); links are a second apart: its request count where it stayed
 * correct, and what it did where it did not. Counts, not time; the settle delay is real (1.5 s a story).
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type CreateFault, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';

export interface LostCreateOptions {
  accountLinks: number;
  log: (line: string) => void;
}

type Order = 'newest first' | 'oldest first';

/** The previous rule's cost or failure, per story (packages/core/src/creating before issue 26). */
const PREVIOUS: Record<Order, Record<'stored' | 'nothing', string>> = {
  'newest first': { stored: '1 (one look)', nothing: '2 (one look, the resend)' },
  'oldest first': { stored: '1, and a second link (the oldest link ended its window)', nothing: '2 (one look, the resend)' },
};

async function extraRequests(sandbox: Sandbox, accountLinks: number, order: Order, fault: CreateFault, run: number): Promise<{ extra: number; links: number }> {
  const { accountId, apiKey } = sandbox.createAccount({ name: `lost ${run}`, email: `lost${run}@example.org`, plan: 'business' });
  // A busy account: a link a second, the newest a minute old. (The second look of an oldest-first list reads
  // the links made in the time the first look took, so links a millisecond apart would cost more pages.)
  sandbox.seedLinks(accountId, accountLinks, { label: `lost${run}`, spacingMs: 1_000, endAt: Date.now() - 60_000 });
  sandbox.setQuirks({ listOrder: order });
  sandbox.setFaults({ createFaults: [fault] });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  const targetUrl = `https://example.org/lost/${run}`;
  const mark = markRequests(sandbox);
  await client.createLink({ targetUrl });
  const extra = requestsSince(sandbox, mark) - 1;
  sandbox.setFaults(undefined);
  sandbox.setQuirks(undefined);
  return { extra, links: sandbox.links(accountId).filter((link) => link.targetUrl === targetUrl).length };
}

export async function lostCreateFigures(options: LostCreateOptions): Promise<ResultRow[]> {
  const { accountLinks, log } = options;
  const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  const rows: ResultRow[] = [];
  let run = 0;
  try {
    for (const order of ['newest first', 'oldest first'] as const) {
      for (const [story, fault] of [['stored', 'serverError'], ['nothing', 'resetBefore']] as const) {
        const { extra, links } = await extraRequests(sandbox, accountLinks, order, fault, ++run);
        const what = story === 'stored' ? 'stored, answer lost (502 after the write)' : 'nothing stored (reset before the write)';
        log(`lost create: ${order}, ${what}: ${extra} extra requests, ${links} link(s)`);
        rows.push(
          row(`lost create on ${accountLinks} links, ${order}, ${what} — extra requests`, extra, 'requests', null, PREVIOUS[order][story],
            `${links} link(s) with the target afterwards; two looks 1.5 s apart${order === 'oldest first' ? ', the first to the end of the list, the second from where the window began' : ', each stopping at the first link older than the window'}${story === 'nothing' ? ', then the one resend' : ''}`),
        );
      }
    }
  } finally {
    await sandbox.close();
  }
  return rows;
}
