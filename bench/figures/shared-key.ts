/**
 * Figure 6: N clients on one API key at once, as n8n's queue mode runs N executions on its workers: each
 * client its own core client (its own pacer), the N together creating 600 links against the scaled window
 * (120 per 6 s), knowing of each other only what the RateLimit-* headers say. N = 1 is the one-client
 * figure of the same run, the baseline of the others. A second variant models webhook-started executions of
 * one row each: every create a new client that knows nothing yet, 20 of them at a time (two workers at
 * n8n's default concurrency of 10).
 */
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { evenShares, rateUse } from '../lib/statistics';
import { WINDOW } from './bulk-create';

interface Outcome {
  successes: number;
  failures: number;
  requests: number;
  tooMany: number;
  spanMs: number;
}

/** Runs `work` on a fresh account (a fresh window) and counts what the sandbox answered meanwhile. */
async function measure(sandbox: Sandbox, label: string, work: (target: { baseUrl: string; apiKey: string }) => Promise<{ successes: number; failures: number }>): Promise<Outcome> {
  const { apiKey } = sandbox.createAccount({ name: `Bench ${label}`, email: `${label}@bench.example`, plan: 'business' });
  const mark = sandbox.requests.length;
  const started = performance.now();
  const { successes, failures } = await work({ baseUrl: sandbox.baseUrl, apiKey });
  const spanMs = performance.now() - started;
  const requests = sandbox.requests.slice(mark);
  return { successes, failures, spanMs, requests: requests.length, tooMany: requests.filter((request) => request.status === 429).length };
}

/** Counts each create as a success or a failed item (a throw). */
function tally() {
  const counts = { successes: 0, failures: 0 };
  const create = async (client: ShortLinkClient, targetUrl: string) => {
    try {
      await client.createLink({ targetUrl });
      counts.successes++;
    } catch {
      counts.failures++;
    }
  };
  return { counts, create };
}

/** `clients` clients at once, each creating its share of `urls` one after another. */
function concurrentClients(urls: string[], clients: number) {
  return async (target: { baseUrl: string; apiKey: string }) => {
    const { counts, create } = tally();
    let offset = 0;
    await Promise.all(
      evenShares(urls.length, clients).map(async (count) => {
        const mine = urls.slice(offset, (offset += count));
        const client = createClient(target);
        for (const targetUrl of mine) await create(client, targetUrl);
      }),
    );
    return counts;
  };
}

/** One create per client, `atOnce` clients running at a time. */
function singleItemRuns(urls: string[], atOnce: number) {
  return async (target: { baseUrl: string; apiKey: string }) => {
    const { counts, create } = tally();
    let next = 0;
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < urls.length) await create(createClient(target), urls[next++]!);
      }),
    );
    return counts;
  };
}

function describe(o: Outcome): string {
  return `${o.successes} ok, ${o.failures} failed, ${o.requests} requests, ${o.tooMany}×429 in ${(o.spanMs / 1000).toFixed(1)} s`;
}

export interface SharedKeyOptions {
  /** Creates per variant; a whole number of windows (see bulk-create). */
  items: number;
  clients: number[];
  /** Single-item runs at a time. */
  singleAtOnce: number;
  log: (line: string) => void;
}

export async function sharedKeyFigures({ items, clients, singleAtOnce, log }: SharedKeyOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { ...WINDOW } });
  const windowMs = WINDOW.windowSeconds * 1000;
  const urls = (label: string) => Array.from({ length: items }, (_, i) => `https://example.org/${label}/${i}`);
  const use = (o: Outcome) => rateUse(o.successes, o.spanMs, WINDOW.limit, windowMs);
  const share429 = (o: Outcome) => (o.requests === 0 ? 0 : (100 * o.tooMany) / o.requests);
  try {
    const outcomes = new Map<number, Outcome>();
    for (const n of clients) {
      log(`shared key: ${n} client(s) at once, ${items} creates …`);
      const outcome = await measure(sandbox, `shared-${n}`, concurrentClients(urls(`shared-${n}`), n));
      outcomes.set(n, outcome);
      log(`  ${describe(outcome)}`);
    }
    log(`shared key: ${items} single-create runs, ${singleAtOnce} at a time …`);
    const single = await measure(sandbox, 'single', singleItemRuns(urls('single'), singleAtOnce));
    log(`  ${describe(single)}`);

    const one = outcomes.get(1);
    const rows: ResultRow[] = [];
    for (const [n, o] of outcomes) {
      const title = `Shared key, ${n} client${n === 1 ? '' : 's'} at once, ${items} creates`;
      const baseline = (value: (x: Outcome) => number, digits: number) => (n === 1 || !one ? null : Number(value(one).toFixed(digits)));
      rows.push(
        row(`${title}: combined rate use`, use(o), 'achieved/allowed', { op: '>=', target: 0.9 }, baseline(use, 3), describe(o)),
        row(`${title}: failed items`, o.failures, 'items', { op: '=', target: 0 }, baseline((x) => x.failures, 0)),
        row(`${title}: 429s received`, share429(o), '% of requests', { op: '<=', target: 5 }, baseline(share429, 1), `${o.tooMany} of ${o.requests} requests`),
      );
    }
    const title = `Shared key, ${items} single-create runs, ${singleAtOnce} at a time`;
    rows.push(
      row(`${title}: combined rate use`, use(single), 'achieved/allowed', null, one ? Number(use(one).toFixed(3)) : null, describe(single)),
      row(`${title}: failed items`, single.failures, 'items', { op: '=', target: 0 }, one ? one.failures : null),
      row(`${title}: 429s received`, share429(single), '% of requests', null, one ? Number(share429(one).toFixed(1)) : null, `${single.tooMany} of ${single.requests} requests`),
    );
    return rows;
  } finally {
    await sandbox.close();
  }
}
