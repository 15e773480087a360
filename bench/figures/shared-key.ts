/**
 * Figure 6: N clients on one API key at once, as n8n's queue mode runs N executions on its workers: each
 * client its own core client (its own pacer), the N together creating 600 links against the scaled window
 * (120 per 6 s), knowing of each other only what the RateLimit-* headers say. N = 1 is the one-client
 * figure of the same run, the baseline of the others; the N clients share nothing, as executions on
 * different workers (processes) do. A second variant models webhook-started executions of one row each on
 * one worker: every create a new client, 20 of them at a time (two workers at n8n's default concurrency of
 * 10). Clients of one key in one process share one pacer (client/process-shared.ts); the same runs with
 * each client on its own pacer are the baseline beside them.
 *
 * Each N runs `runs` times on fresh accounts (issue 28: one run of three used to dip to 0.83 at N = 16): the
 * rate-use row shows the worst run against its goal, the note the minimum, median and every run.
 */
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { evenShares, median, rateUse } from '../lib/statistics';
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
        const client = createClient({ ...target, shareAcrossClients: false });
        for (const targetUrl of mine) await create(client, targetUrl);
      }),
    );
    return counts;
  };
}

/** One create per client, `atOnce` clients running at a time; `share`: the process's pacer (false: each its own). */
function singleItemRuns(urls: string[], atOnce: number, share: boolean) {
  return async (target: { baseUrl: string; apiKey: string }) => {
    const { counts, create } = tally();
    let next = 0;
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < urls.length) await create(createClient({ ...target, shareAcrossClients: share }), urls[next++]!);
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
  /** Runs of each N (fresh accounts); the rows give the worst and the median. */
  runs: number;
  /** Single-item runs at a time. */
  singleAtOnce: number;
  log: (line: string) => void;
}

/** Minimum, median and every value of the runs, for a row's note. */
function spread(values: number[], digits: number): string {
  const fixed = (x: number) => x.toFixed(digits);
  return `min ${fixed(Math.min(...values))}, median ${fixed(median(values))} of ${values.length} runs (${values.map(fixed).join(', ')})`;
}

export async function sharedKeyFigures({ items, clients, runs, singleAtOnce, log }: SharedKeyOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { ...WINDOW } });
  const windowMs = WINDOW.windowSeconds * 1000;
  const urls = (label: string) => Array.from({ length: items }, (_, i) => `https://example.org/${label}/${i}`);
  const use = (o: Outcome) => rateUse(o.successes, o.spanMs, WINDOW.limit, windowMs);
  const share429 = (o: Outcome) => (o.requests === 0 ? 0 : (100 * o.tooMany) / o.requests);
  try {
    const outcomes = new Map<number, Outcome[]>();
    for (const n of clients) {
      const each: Outcome[] = [];
      for (let run = 1; run <= runs; run++) {
        log(`shared key: ${n} client(s) at once, ${items} creates, run ${run} of ${runs} …`);
        const outcome = await measure(sandbox, `shared-${n}-${run}`, concurrentClients(urls(`shared-${n}-${run}`), n));
        each.push(outcome);
        log(`  ${describe(outcome)}`);
      }
      outcomes.set(n, each);
    }
    const singles: Outcome[] = [];
    for (let run = 1; run <= runs; run++) {
      log(`shared key: ${items} single-create runs, ${singleAtOnce} at a time, one pacer in the process, run ${run} of ${runs} …`);
      singles.push(await measure(sandbox, `single-${run}`, singleItemRuns(urls(`single-${run}`), singleAtOnce, true)));
      log(`  ${describe(singles[singles.length - 1]!)}`);
    }
    log(`shared key: the same, each client its own pacer (the baseline) …`);
    const unshared = await measure(sandbox, 'single-unshared', singleItemRuns(urls('single-unshared'), singleAtOnce, false));
    log(`  ${describe(unshared)}`);

    const one = outcomes.get(1);
    const worst = (list: Outcome[], value: (x: Outcome) => number) => Math.min(...list.map(value));
    const most = (list: Outcome[], value: (x: Outcome) => number) => Math.max(...list.map(value));
    const rows: ResultRow[] = [];
    for (const [n, list] of outcomes) {
      const title = `Shared key, ${n} client${n === 1 ? '' : 's'} at once, ${items} creates (worst of ${list.length} runs)`;
      const baseline = (value: number) => (n === 1 || !one ? null : Number(value.toFixed(3)));
      const failed = list.reduce((sum, o) => sum + o.failures, 0);
      rows.push(
        row(`${title}: combined rate use`, worst(list, use), 'achieved/allowed', { op: '>=', target: 0.95 }, baseline(one ? worst(one, use) : 0), spread(list.map(use), 3)),
        row(`${title}: failed items`, failed, 'items', { op: '=', target: 0 }, n === 1 || !one ? null : one.reduce((sum, o) => sum + o.failures, 0)),
        row(
          `${title}: 429s received`,
          most(list, share429),
          '% of requests',
          { op: '<=', target: 5 },
          n === 1 || !one ? null : Number(most(one, share429).toFixed(1)),
          `${spread(list.map(share429), 1)}; ${list.map((o) => `${o.tooMany} of ${o.requests}`).join(', ')} requests`,
        ),
      );
    }
    const title = `Shared key, ${items} single-create runs, ${singleAtOnce} at a time (new clients, one pacer per process; worst of ${singles.length} runs)`;
    rows.push(
      row(`${title}: combined rate use`, worst(singles, use), 'achieved/allowed', null, Number(use(unshared).toFixed(3)), `${spread(singles.map(use), 3)}; baseline: each client its own pacer`),
      row(`${title}: failed items`, singles.reduce((sum, o) => sum + o.failures, 0), 'items', { op: '=', target: 0 }, unshared.failures),
      row(
        `${title}: 429s received`,
        most(singles, share429),
        '% of requests',
        { op: '<=', target: 5 },
        Number(share429(unshared).toFixed(1)),
        `${spread(singles.map(share429), 1)}; ${singles.map((o) => `${o.tooMany} of ${o.requests}`).join(', ')} requests; baseline (each its own pacer): ${unshared.tooMany} of ${unshared.requests}`,
      ),
    );
    return rows;
  } finally {
    await sandbox.close();
  }
}
