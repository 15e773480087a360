/**
 * Figure 2: requests a "new link" trigger spends. A quiet poll (nothing new) and bursts of K new links,
 * counted at the sandbox (every API request after the burst was created, until the trigger has delivered
 * all K links), for the core's pollNewLinks, the n8n trigger and the Zapier trigger. Baseline in the same
 * run: list everything and diff against the ids seen before, the usual way when an API has no "since".
 * Every account starts with `existingLinks` links, so listing everything has something to list.
 * Request counts only, no time: the sandbox's rate limit is set out of the way.
 */
import { createClient, type NewLinksState } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';
import { seedLinks, type SeedTarget } from '../lib/seed-links';
import { loadN8nHarness } from '../hosts/n8n-host';
import { startZapierWorker } from '../hosts/zapier-host';

/** The API's largest page, the page size of every trigger measured; the goal counts in these pages. */
const PAGE_SIZE = 100;
/** A burst not delivered within this many polls counts as not delivered. */
const MAX_POLLS = 30;

/** One poll; returns the ids it handed to the workflow (in any order). */
type Poll = () => Promise<string[]>;
/** A trigger on one account; `close` ends whatever the trigger's host started. */
type TriggerFactory = (target: SeedTarget) => { poll: Poll; close?: () => void };

const corePoll: TriggerFactory = (target) => {
  const client = createClient(target);
  let state: NewLinksState | undefined;
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
const zapierPoll: TriggerFactory = (target) => {
  const worker = startZapierWorker();
  const seen = new Set<string>();
  let primed = false;
  return {
    poll: async () => {
      const bundle = { authData: target, inputData: {}, meta: { zap: { id: 'bench-zap' } } };
      const items = (await worker.invoke('triggers', 'new_link', bundle)) as Array<{ id: string }>;
      const fresh = items.map((item) => String(item.id)).filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      if (!primed) {
        primed = true;
        return [];
      }
      return fresh;
    },
    close: () => worker.close(),
  };
};

/** The baseline: every poll lists all pages and reports the ids not seen before. */
const listAllAndDiff: TriggerFactory = (target) => {
  const seen = new Set<string>();
  let primed = false;
  const headers = { Authorization: `Bearer ${target.apiKey}`, Accept: 'application/json' };
  const poll: Poll = async () => {
    const fresh: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100_000; page++) {
      const query: string = cursor === null ? `limit=${PAGE_SIZE}` : `limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`;
      const response = await fetch(`${target.baseUrl}/api/v1/links?${query}`, { headers });
      if (response.status !== 200) throw new Error(`list-all baseline: GET /links answered ${response.status}`);
      const body = (await response.json()) as { data: Array<{ id: string }>; nextCursor: string | null };
      for (const link of body.data) if (!seen.has(link.id)) fresh.push(link.id);
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    for (const id of fresh) seen.add(id);
    if (!primed) {
      primed = true;
      return [];
    }
    return fresh;
  };
  return { poll };
};

interface TriggerRun {
  quiet: number;
  /** Per burst size: requests until every link of the burst was delivered, and whether that was exact. */
  bursts: Array<{ k: number; requests: number; polls: number; delivered: boolean; extra: number }>;
}

async function runTrigger(sandbox: Sandbox, label: string, factory: TriggerFactory, existing: number, bursts: readonly number[]): Promise<TriggerRun> {
  const { apiKey } = sandbox.createAccount({ name: `Trigger ${label}`, email: `${label}@bench.example`, plan: 'business' });
  const target = { baseUrl: sandbox.baseUrl, apiKey };
  await seedLinks(target, existing, `${label}-existing`);
  const trigger = factory(target);
  try {
    return await measureTrigger(sandbox, label, target, trigger.poll, bursts);
  } finally {
    trigger.close?.();
  }
}

async function measureTrigger(sandbox: Sandbox, label: string, target: SeedTarget, poll: Poll, bursts: readonly number[]): Promise<TriggerRun> {
  await poll(); // the first poll sets the starting point; nothing is new yet

  let mark = markRequests(sandbox);
  const quietIds = await poll();
  if (quietIds.length > 0) throw new Error(`${label}: a quiet poll delivered ${quietIds.length} links`);
  const quiet = requestsSince(sandbox, mark);

  const results: TriggerRun['bursts'] = [];
  for (const k of bursts) {
    const burst = new Set(await seedLinks(target, k, `${label}-burst-${k}`));
    mark = markRequests(sandbox);
    const pending = new Set(burst);
    let extra = 0;
    let polls = 0;
    while (pending.size > 0 && polls < MAX_POLLS) {
      polls++;
      for (const id of await poll()) {
        if (!pending.delete(id)) extra++; // delivered twice, or not part of the burst
      }
    }
    results.push({ k, requests: requestsSince(sandbox, mark), polls, delivered: pending.size === 0, extra });
  }
  return { quiet, bursts: results };
}

export interface TriggerEconomyOptions {
  existingLinks: number;
  bursts: readonly number[];
  log: (line: string) => void;
}

export async function triggerEconomyFigures({ existingLinks, bursts, log }: TriggerEconomyOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  try {
    log(`trigger economy: baseline (list everything and diff), ${existingLinks} existing links …`);
    const baseline = await runTrigger(sandbox, 'list-all', listAllAndDiff, existingLinks, bursts);
    const rows: ResultRow[] = [];
    for (const [label, title, factory] of [
      ['core', 'core pollNewLinks', corePoll],
      ['n8n', 'n8n trigger', n8nPoll],
      ['zapier', 'Zapier new_link', zapierPoll],
    ] as const) {
      log(`trigger economy: ${label} …`);
      let run: TriggerRun;
      try {
        run = await runTrigger(sandbox, label, factory, existingLinks, bursts);
      } catch (error) {
        // A host that cannot run (e.g. not built) fails its own rows, not the others'.
        const reason = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${reason}`);
        rows.push({ name: `Trigger, ${title}: could not run`, value: Number.NaN, unit: '', goal: null, baseline: null, met: false, note: reason });
        continue;
      }
      log(`  quiet ${run.quiet}; ${run.bursts.map((b) => `K=${b.k}: ${b.requests} req/${b.polls} polls`).join(', ')}`);
      rows.push(row(`Trigger, ${title}: requests per quiet poll`, run.quiet, 'requests', { op: '<=', target: 1 }, baseline.quiet));
      run.bursts.forEach((burst, i) => {
        const goal = Math.ceil(burst.k / PAGE_SIZE) + 1;
        const exact = burst.delivered && burst.extra === 0;
        const result = row(
          `Trigger, ${title}: requests for a burst of K=${burst.k}`,
          burst.requests,
          'requests',
          { op: '<=', target: goal },
          baseline.bursts[i]!.requests,
          burst.polls === 1 && exact
            ? undefined
            : `${burst.polls} polls${exact ? '' : burst.delivered ? `, ${burst.extra} link(s) delivered twice or foreign` : ', NOT all links delivered'}`,
        );
        // Cheap but lossy (or repeating) is not a pass.
        if (!exact) result.met = false;
        rows.push(result);
      });
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}
