/**
 * Figure 1: bulk create of N links through the core, the n8n node (one execute over N items) and the Zapier
 * create (N invocations one after another; with the pacing state the app shares between steps through z.cache,
 * and without it), against the sandbox with a scaled window (120 per 6 s), next to
 * the baseline of the same run: a naive axios loop, what an HTTP Request node does (no pacing, no retry).
 * Each variant uses its own account, so each starts with a fresh rate-limit window.
 */
import axios from 'axios';
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { rateUse } from '../lib/statistics';
import { countStatuses } from '../lib/status-counter';
import { loadN8nHarness } from '../hosts/n8n-host';
import { startZapierWorker } from '../hosts/zapier-host';

export const WINDOW = { limit: 120, windowSeconds: 6 } as const;

interface Outcome {
  successes: number;
  failures: number;
  spanMs: number;
  requests: number;
  tooMany: number;
}

interface VariantResult {
  successes: number;
  failures: number;
  /** Statuses counted where the requests were sent, when that is another process (Zapier's worker). */
  statuses?: Record<string, number>;
}

interface Target {
  baseUrl: string;
  apiKey: string;
}

/** Set up (untimed: clients, hosts, worker processes), then `run` is timed; `close` ends what setup started. */
type Variant = (target: Target) => Promise<{ run(urls: string[]): Promise<VariantResult>; close?(): void }>;

async function measure(sandbox: Sandbox, label: string, urls: string[], variant: Variant): Promise<Outcome> {
  const { apiKey } = sandbox.createAccount({ name: `Bench ${label}`, email: `${label}@bench.example`, plan: 'business' });
  const prepared = await variant({ baseUrl: sandbox.baseUrl, apiKey });
  const counter = countStatuses(sandbox.baseUrl);
  try {
    const started = performance.now();
    const { successes, failures, statuses } = await prepared.run(urls);
    const spanMs = performance.now() - started;
    if (statuses) {
      const requests = Object.values(statuses).reduce((sum, n) => sum + n, 0);
      return { successes, failures, spanMs, requests, tooMany: statuses['429'] ?? 0 };
    }
    return { successes, failures, spanMs, requests: counter.total(), tooMany: counter.count(429) };
  } finally {
    counter.stop();
    prepared.close?.();
  }
}

/** Runs `one` per URL in turn; a throw is a failed item. */
async function eachInTurn(urls: string[], one: (targetUrl: string) => Promise<unknown>): Promise<VariantResult> {
  let successes = 0;
  let failures = 0;
  for (const targetUrl of urls) {
    try {
      await one(targetUrl);
      successes++;
    } catch {
      failures++;
    }
  }
  return { successes, failures };
}

const throughCore: Variant = async (target) => {
  const client = createClient(target);
  return { run: (urls) => eachInTurn(urls, (targetUrl) => client.createLink({ targetUrl })) };
};

const throughN8n: Variant = async (target) => {
  const { runNode } = loadN8nHarness();
  return {
    run: async (urls) => {
      const output = await runNode({
        credentials: target,
        continueOnFail: true,
        items: urls.map((url) => ({ url })),
        parameters: (i) => ({ resource: 'link', operation: 'create', targetUrl: urls[i] }),
      });
      const failures = output.filter((item) => item.json.error !== undefined).length;
      return { successes: output.length - failures, failures };
    },
  };
};

/**
 * One invocation after the other, as Zapier's throttle queues the runs of one connection. `shared`: each step
 * starts from what the earlier ones stored in z.cache (the app's shared pacing state); without it, each finds
 * an empty cache and starts blind, as every step did before.
 */
const throughZapier = (shared: boolean): Variant => async (target) => {
  const worker = startZapierWorker();
  await worker.countStatuses(target.baseUrl); // also waits until the worker has loaded the app
  return {
    run: async (urls) => {
      const result = await eachInTurn(urls, (targetUrl) =>
        worker.invoke('creates', 'create_link', { authData: target, inputData: { targetUrl } }, { freshCache: !shared }),
      );
      return { ...result, statuses: await worker.statuses() };
    },
    close: () => worker.close(),
  };
};

/** The baseline: one POST per item, a failed request is a failed item (axios throws on 4xx). */
const naiveAxiosLoop: Variant = async (target) => {
  const headers = { Authorization: `Bearer ${target.apiKey}` };
  return { run: (urls) => eachInTurn(urls, (targetUrl) => axios.post(`${target.baseUrl}/api/v1/links`, { targetUrl }, { headers })) };
};

function describe(o: Outcome): string {
  return `${o.successes} ok, ${o.failures} failed, ${o.requests} requests, ${o.tooMany}×429 in ${(o.spanMs / 1000).toFixed(1)} s`;
}

export interface BulkCreateOptions {
  /** Items per variant; a whole number of windows, so an ideal client scores 1.0 (see rateUse). */
  items: number;
  log: (line: string) => void;
}

export async function bulkCreateFigures({ items, log }: BulkCreateOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { ...WINDOW } });
  const windowMs = WINDOW.windowSeconds * 1000;
  const urls = (label: string) => Array.from({ length: items }, (_, i) => `https://example.org/${label}/${i}`);
  try {
    const outcomes: Record<string, Outcome | Error> = {};
    // Requests a run sends besides its creates: the n8n run reads the plan's quota once (GET /me) before its
    // first create, so it gets one item fewer and its requests fill the same whole windows as the others'.
    for (const [label, variant, readsBeside] of [
      ['naive-axios', naiveAxiosLoop, 0],
      ['core', throughCore, 0],
      ['n8n', throughN8n, 1],
      ['zapier', throughZapier(true), 0],
      ['zapier-blind', throughZapier(false), 0],
    ] as const) {
      log(`bulk create: ${label}, ${items - readsBeside} items …`);
      try {
        const outcome = await measure(sandbox, label, urls(label).slice(readsBeside), variant);
        outcomes[label] = outcome;
        log(`  ${describe(outcome)}`);
      } catch (error) {
        // A host that cannot run (e.g. not built) fails its own rows, not the others'.
        outcomes[label] = error instanceof Error ? error : new Error(String(error));
        log(`  FAILED: ${outcomes[label].message}`);
      }
    }
    const baseline = outcomes['naive-axios']!;
    if (baseline instanceof Error) throw baseline;
    // Every request the service accepted counts (a create or the n8n run's quota read); 429s do not.
    const use = (o: Outcome) => rateUse(o.requests - o.tooMany, o.spanMs, WINDOW.limit, windowMs);
    const share429 = (o: Outcome) => (o.requests === 0 ? 0 : (100 * o.tooMany) / o.requests);
    const rows: ResultRow[] = [];
    // Rate-use goal and the outcome it stands beside: the Zapier app with its shared pacing state beside the
    // same app without it (issue 28), the others beside the naive loop.
    for (const [label, title, useGoal, beside] of [
      ['core', 'core createLink', 0.95, 'naive-axios'],
      ['n8n', 'n8n execute over N − 1 items and its quota read', 0.95, 'naive-axios'],
      ['zapier', 'Zapier create (N invocations)', 0.97, 'zapier-blind'],
      ['zapier-blind', 'Zapier create (N invocations) without the shared pacing state', null, 'naive-axios'],
    ] as const) {
      const o = outcomes[label]!;
      if (o instanceof Error) {
        rows.push({ name: `Bulk create N=${items}, ${title}: could not run`, value: Number.NaN, unit: '', goal: null, baseline: null, met: false, note: o.message });
        continue;
      }
      const other = outcomes[beside];
      const base = other instanceof Error || other === undefined ? undefined : other;
      rows.push(
        row(`Bulk create N=${items}, ${title}: rate use`, use(o), 'achieved/allowed', useGoal === null ? null : { op: '>=', target: useGoal }, base ? Number(use(base).toFixed(3)) : null, describe(o)),
        row(`Bulk create N=${items}, ${title}: failed items`, o.failures, 'items', { op: '=', target: 0 }, base ? base.failures : null),
        row(
          `Bulk create N=${items}, ${title}: 429s received`,
          share429(o),
          '% of requests',
          { op: '<=', target: 1 },
          base ? Number(share429(base).toFixed(1)) : null,
          `${o.tooMany} of ${o.requests} requests`,
        ),
      );
    }
    rows.push(
      row(`Bulk create N=${items}, naive axios loop (baseline): rate use`, use(baseline), 'achieved/allowed', null, null, describe(baseline)),
    );
    return rows;
  } finally {
    await sandbox.close();
  }
}
