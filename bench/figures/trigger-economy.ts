/**
 * Figure 2: what a "new link" trigger spends and how it delivers. For the core's pollNewLinks, the n8n
 * trigger and the Zapier trigger, each beside today's behaviour measured in the same run (the first
 * algorithm with each host's old settings, bench/baselines/new-links-v1.ts):
 * - requests of a quiet poll, and requests until a burst of K new links is delivered, exactly once;
 * - a backlog of 20 000 new links (a pause, an import): requests and polls until all of it is delivered,
 *   the poll in which its first links arrive, and whether it came oldest first and exactly once.
 * Requests are counted at the sandbox (every API request of the trigger after the links were made).
 * Links are put straight into the sandbox's store (no API requests, no rate limit): counts, not time.
 */
import { createClient, type Link, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { pollNewLinksWith as pollV1, type NewLinksState as StateV1 } from '../baselines/new-links-v1';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';
import { loadN8nHarness } from '../hosts/n8n-host';
import { startZapierWorker } from '../hosts/zapier-host';

/** The API's largest page, the page size of every trigger measured; the goals count in these pages. */
const PAGE_SIZE = 100;

/** One poll; returns the ids it handed out, oldest first. */
type Poll = () => Promise<string[]>;
interface Target {
  baseUrl: string;
  apiKey: string;
}
/** A trigger on one account; `close` ends whatever its host started. */
type TriggerFactory = (target: Target) => { poll: Poll; close?: () => void };

interface Host {
  label: string;
  title: string;
  /** Links one poll hands out at most: a burst up to this fits one poll. */
  perPoll: number;
  current: TriggerFactory;
  today: TriggerFactory;
}

const corePoll: TriggerFactory = (target) => {
  const client = createClient(target);
  let state: Parameters<ShortLinkClient['pollNewLinks']>[0];
  return {
    poll: async () => {
      const result = await client.pollNewLinks(state);
      state = result.state;
      return result.links.map((link) => link.id);
    },
  };
};

const n8nPoll: TriggerFactory = (target) => {
  const host = loadN8nHarness().triggerHost(target, {});
  return { poll: async () => ((await host.poll('trigger')) ?? []).map((item) => String(item.id)) };
};

/** Zapier fires an item once per id (its dedupe); the first poll of a Zap only fills the dedupe table. */
function zapierDedupe(): (items: Array<{ id: string }>) => string[] {
  const seen = new Set<string>();
  let primed = false;
  return (items) => {
    const fresh = items.map((item) => String(item.id)).filter((id) => !seen.has(id));
    for (const id of fresh) seen.add(id);
    if (!primed) {
      primed = true;
      return [];
    }
    return fresh.reverse(); // Zapier gets them newest first; handed out, they read oldest first
  };
}

const zapierPoll: TriggerFactory = (target) => {
  const worker = startZapierWorker();
  const dedupe = zapierDedupe();
  return {
    poll: async () => {
      const bundle = { authData: target, inputData: {}, meta: { zap: { id: 'bench-zap' } } };
      return dedupe((await worker.invoke('triggers', 'new_link', bundle)) as Array<{ id: string }>);
    },
    close: () => worker.close(),
  };
};

/** Today's behaviour: the first algorithm through the core client's listLinks, with a host's old settings. */
function todayPoll(maxPages: number, zapier = false): TriggerFactory {
  return (target) => {
    const client = createClient(target);
    const fetchPage = (request: { limit: number; cursor?: string }) => client.listLinks(request);
    let state: StateV1 | undefined;
    const dedupe = zapierDedupe();
    return {
      poll: async () => {
        if (!zapier) {
          const result = await pollV1(fetchPage, state, { maxPages });
          state = result.state;
          return result.links.map((link: Link) => link.id);
        }
        // The old Zapier trigger: the first poll marks and returns the newest page; later polls every link found.
        if (state === undefined) {
          state = (await pollV1(fetchPage, undefined, { pageSize: PAGE_SIZE, maxPages })).state;
          return dedupe((await client.listLinks({ limit: PAGE_SIZE })).links);
        }
        const result = await pollV1(fetchPage, state, { pageSize: PAGE_SIZE, maxPages });
        state = result.state;
        return dedupe([...result.links].reverse());
      },
    };
  };
}

const HOSTS: Host[] = [
  { label: 'core', title: 'core pollNewLinks', perPoll: 1000, current: corePoll, today: todayPoll(10) },
  { label: 'n8n', title: 'n8n trigger', perPoll: 1000, current: n8nPoll, today: todayPoll(5) },
  { label: 'zapier', title: 'Zapier new_link', perPoll: 100, current: zapierPoll, today: todayPoll(5, true) },
];

interface Delivery {
  requests: number;
  polls: number;
  /** The most links one poll handed out. */
  largestPoll: number;
  /** The poll (1-based) in which the first links arrived; 0: never. */
  firstAt: number;
  /** Every link once, nothing else. */
  exact: boolean;
  /** In creation order. */
  oldestFirst: boolean;
}

/** Polls until `expected` (oldest first) has been handed out or `maxPolls` ran out. */
async function deliver(sandbox: Sandbox, poll: Poll, expected: readonly string[], maxPolls: number): Promise<Delivery> {
  const mark = markRequests(sandbox);
  const pending = new Set(expected);
  const order: string[] = [];
  let extra = 0;
  let polls = 0;
  let firstAt = 0;
  let largestPoll = 0;
  while (pending.size > 0 && polls < maxPolls) {
    polls++;
    const ids = await poll();
    largestPoll = Math.max(largestPoll, ids.length);
    if (ids.length > 0 && firstAt === 0) firstAt = polls;
    for (const id of ids) {
      if (pending.delete(id)) order.push(id);
      else extra++;
    }
  }
  const rank = new Map(expected.map((id, index) => [id, index]));
  const oldestFirst = order.every((id, index) => index === 0 || rank.get(id)! > rank.get(order[index - 1]!)!);
  return { requests: requestsSince(sandbox, mark), polls, largestPoll, firstAt, exact: pending.size === 0 && extra === 0, oldestFirst };
}

/** A fresh account with `existing` links, and the trigger's first poll (it only sets its mark). */
async function setUp(sandbox: Sandbox, label: string, factory: TriggerFactory, existing: number) {
  const { accountId, apiKey } = sandbox.createAccount({ name: `Trigger ${label}`, email: `${label}@bench.example`, plan: 'business' });
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const seed = (count: number, tag: string): string[] => {
    // Each batch strictly after the one before, one millisecond apart: a burst is newer than the mark.
    clock += count + 1000;
    return sandbox.seedLinks(accountId, count, { label: `${label}-${tag}`, endAt: clock }).map((link) => link.id);
  };
  seed(existing, 'existing');
  const trigger = factory({ baseUrl: sandbox.baseUrl, apiKey });
  await trigger.poll(); // the first poll sets the starting point; nothing is new yet
  return { trigger, seed };
}

interface HostRun {
  quiet: number;
  bursts: Array<{ k: number } & Delivery>;
  backlog: Delivery;
}

async function measure(sandbox: Sandbox, label: string, factory: TriggerFactory, existing: number, bursts: readonly number[], backlog: number): Promise<HostRun> {
  const { trigger, seed } = await setUp(sandbox, `${label}-bursts`, factory, existing);
  try {
    const mark = markRequests(sandbox);
    const quietIds = await trigger.poll();
    if (quietIds.length > 0) throw new Error(`${label}: a quiet poll delivered ${quietIds.length} links`);
    const quiet = requestsSince(sandbox, mark);
    const results: HostRun['bursts'] = [];
    for (const k of bursts) results.push({ k, ...(await deliver(sandbox, trigger.poll, seed(k, `burst-${k}`), 60)) });
    trigger.close?.();
    const big = await setUp(sandbox, `${label}-backlog`, factory, existing);
    try {
      const delivery = await deliver(sandbox, big.trigger.poll, big.seed(backlog, 'backlog'), 5000);
      return { quiet, bursts: results, backlog: delivery };
    } finally {
      big.trigger.close?.();
    }
  } finally {
    trigger.close?.();
  }
}

function deliveryNote(d: Delivery): string | undefined {
  const problems = [];
  if (!d.exact) problems.push('NOT every link exactly once');
  if (!d.oldestFirst) problems.push('not oldest first');
  return problems.length > 0 ? problems.join(', ') : undefined;
}

export interface TriggerEconomyOptions {
  existingLinks: number;
  bursts: readonly number[];
  backlog: number;
  log: (line: string) => void;
}

export async function triggerEconomyFigures({ existingLinks, bursts, backlog, log }: TriggerEconomyOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ seed: false, rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  const backlogPages = Math.ceil(backlog / PAGE_SIZE);
  try {
    const rows: ResultRow[] = [];
    for (const host of HOSTS) {
      let current: HostRun;
      let today: HostRun;
      try {
        log(`trigger economy: ${host.label}, today's behaviour …`);
        today = await measure(sandbox, `${host.label}-today`, host.today, existingLinks, bursts, backlog);
        log(`  ${summary(today)}`);
        log(`trigger economy: ${host.label} …`);
        current = await measure(sandbox, host.label, host.current, existingLinks, bursts, backlog);
        log(`  ${summary(current)}`);
      } catch (error) {
        // A host that cannot run (e.g. not built) fails its own rows, not the others'.
        const reason = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${reason}`);
        rows.push({ name: `Trigger, ${host.title}: could not run`, value: Number.NaN, unit: '', goal: null, baseline: null, met: false, note: reason });
        continue;
      }
      const name = (what: string) => `Trigger, ${host.title}: ${what}`;
      rows.push(row(name('requests per quiet poll'), current.quiet, 'requests', { op: '<=', target: 1 }, today.quiet));
      current.bursts.forEach((burst, i) => {
        const pages = Math.ceil(burst.k / PAGE_SIZE);
        // A burst that fits one poll: its pages and one more to meet the mark. A larger one comes over
        // several polls, each page read at most twice.
        const fits = burst.k <= host.perPoll;
        const goal = fits ? pages + 1 : 2 * pages + 1;
        const note = [burst.polls > 1 ? `${burst.polls} polls` : undefined, fits ? undefined : `more than the ${host.perPoll} links one poll delivers`, deliveryNote(burst)]
          .filter(Boolean)
          .join('; ');
        const result = row(name(`requests for a burst of K=${burst.k}`), burst.requests, 'requests', { op: '<=', target: goal }, today.bursts[i]!.requests, note || undefined);
        if (!burst.exact || !burst.oldestFirst) result.met = false; // cheap but lossy, repeating or out of order is not a pass
        rows.push(result);
      });
      const b = current.backlog;
      const backlogRow = row(name(`requests to deliver a backlog of ${backlog}`), b.requests, 'requests', { op: '<=', target: 2 * backlogPages + 10 }, today.backlog.requests, deliveryNote(b) ?? `${b.polls} polls (today: ${today.backlog.polls}${today.backlog.exact ? '' : ', not all delivered'})`);
      if (!b.exact || !b.oldestFirst) backlogRow.met = false;
      rows.push(backlogRow);
      rows.push(row(name(`poll in which a backlog of ${backlog} starts to arrive`), b.firstAt, 'poll', { op: '=', target: 1 }, today.backlog.firstAt));
      if (host.label === 'zapier') {
        // Zapier holds the runs of a poll that brings more than about 100 new items.
        const largest = Math.max(b.largestPoll, ...current.bursts.map((burst) => burst.largestPoll));
        const largestToday = Math.max(today.backlog.largestPoll, ...today.bursts.map((burst) => burst.largestPoll));
        rows.push(row(name('most new links handed to Zapier in one poll'), largest, 'links', { op: '<=', target: 100 }, largestToday));
      }
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}

function summary(run: HostRun): string {
  const bursts = run.bursts.map((b) => `K=${b.k}: ${b.requests} req/${b.polls} polls${b.exact && b.oldestFirst ? '' : ' (!)'}`).join(', ');
  const b = run.backlog;
  return `quiet ${run.quiet}; ${bursts}; backlog: ${b.requests} req/${b.polls} polls, first in poll ${b.firstAt}${b.exact && b.oldestFirst ? '' : ' (!)'}`;
}
