/**
 * Figure 3: what the integration adds per request. The same read (GET /links/{id}) against the same local
 * sandbox with no rate limit, sent by raw fetch, by the core's getLink (default axios transport), and by the
 * n8n node's execute (operation Get, one item per request, time per item). Raw axios runs alongside to tell
 * the HTTP library's share of the core's overhead from the core's own. Rounds interleave the variants
 * (and rotate their order) so that machine noise hits all of them alike; each round times a batch, and a
 * variant's figure is the median per-request time over the rounds (the first round is a warm-up, dropped).
 */
import axios from 'axios';
import { createClient } from '@shortlink/core';
import { startSandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { median } from '../lib/statistics';
import { seedLinks } from '../lib/seed-links';
import { loadN8nHarness } from '../hosts/n8n-host';

type Batch = (count: number) => Promise<void>;

export interface OverheadOptions {
  rounds: number;
  /** Requests per timed batch. */
  batch: number;
  log: (line: string) => void;
}

export async function overheadFigures({ rounds, batch, log }: OverheadOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  try {
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey };
    const [id] = await seedLinks(target, 1, 'overhead');
    const url = `${sandbox.baseUrl}/api/v1/links/${id}`;
    const headers = { Authorization: `Bearer ${sandbox.apiKey}`, Accept: 'application/json' };

    const rawFetch: Batch = async (count) => {
      for (let i = 0; i < count; i++) {
        const response = await fetch(url, { headers });
        if (response.status !== 200) throw new Error(`raw fetch answered ${response.status}`);
        await response.json();
      }
    };
    const rawAxios: Batch = async (count) => {
      for (let i = 0; i < count; i++) {
        const response = await axios.get(url, { headers });
        if (response.status !== 200) throw new Error(`raw axios answered ${response.status}`);
      }
    };
    const client = createClient(target);
    const core: Batch = async (count) => {
      for (let i = 0; i < count; i++) await client.getLink(id!);
    };
    // The n8n host is loaded from the built package; if it cannot load, its row fails and the others stand.
    let n8n: Batch | undefined;
    let n8nError: string | undefined;
    try {
      const { runNode } = loadN8nHarness();
      n8n = async (count) => {
        const output = await runNode({
          credentials: target,
          items: Array.from({ length: count }, () => ({})),
          parameters: { resource: 'link', operation: 'get', link: { __rl: true, mode: 'id', value: id } },
        });
        if (output.length !== count || output.some((item) => item.json.id !== id)) throw new Error('n8n get returned other items');
      };
    } catch (error) {
      n8nError = error instanceof Error ? error.message : String(error);
    }

    const variants: Record<string, Batch> = { rawFetch, rawAxios, core, ...(n8n ? { n8n } : {}) };
    const names = Object.keys(variants);
    const perRequestMs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    log(`overhead: ${rounds} rounds × ${batch} requests per variant …`);
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another variant, so no variant always runs right after the same one.
      for (const name of names.map((_, i) => names[(i + round) % names.length]!)) {
        const started = performance.now();
        await variants[name]!(batch);
        if (round > 0) perRequestMs[name]!.push((performance.now() - started) / batch);
      }
    }
    const fetchMs = median(perRequestMs.rawFetch!);
    const axiosMs = median(perRequestMs.rawAxios!);
    const coreMs = median(perRequestMs.core!);
    const n8nMs = n8n ? median(perRequestMs.n8n!) : Number.NaN;
    log(`  median per request: fetch ${fetchMs.toFixed(3)} ms, axios ${axiosMs.toFixed(3)} ms, core ${coreMs.toFixed(3)} ms, n8n ${n8nMs.toFixed(3)} ms`);
    const samples = (rounds - 1) * batch;
    return [
      row('Overhead: core getLink vs raw fetch, per request', coreMs / fetchMs, '× fetch', { op: '<=', target: 1.15 }, `fetch ${fetchMs.toFixed(3)} ms`, `core ${coreMs.toFixed(3)} ms; medians of ${rounds - 1} batches of ${batch} (${samples} requests)`),
      row(
        "Overhead: core getLink vs raw axios, per request (the core's own share)",
        coreMs / axiosMs,
        '× axios',
        null,
        `axios ${axiosMs.toFixed(3)} ms`,
        "no goal: the core's own work, apart from its HTTP library (axios, the standalone transport)",
      ),
      n8nError === undefined
        ? row('Overhead: n8n execute (Get) vs raw fetch, per item', n8nMs / fetchMs, '× fetch', { op: '<=', target: 1.15 }, `fetch ${fetchMs.toFixed(3)} ms`, `n8n ${n8nMs.toFixed(3)} ms per item; medians of ${rounds - 1} batches of ${batch} items`)
        : { name: 'Overhead: n8n execute (Get): could not run', value: Number.NaN, unit: '', goal: null, baseline: null, met: false, note: n8nError },
    ];
  } finally {
    await sandbox.close();
  }
}
