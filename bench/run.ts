/**
 * `npm run bench`: every figure of issue 8 in one run, printed as a table and written to bench/results.json.
 * Builds the n8n package and the Zapier app first (their artifacts are measured, and the hosts are driven
 * through what they ship). Timing lives here only: tests never assert on time.
 *
 * Environment, for working on the bench only (the documented numbers come from a plain full run):
 * BENCH_ONLY=bulk,sharedKey,contention,trigger,clicks,overhead,memory,sandbox,lookups,lostCreate,qrCode,mcp,reports,artifacts runs a subset; BENCH_SKIP_BUILD=1 reuses existing
 * builds; BENCH_QUICK=1 shrinks every size (a smoke run of under a minute; its numbers mean little).
 *
 * Every run but a quick one writes the rows of the figures it measured into the table of docs/performance.md
 * (bench/lib/performance-doc.ts); a figure that failed keeps its earlier rows there. BENCH_NO_DOC=1 leaves
 * the document alone.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { artifactFigures } from './figures/artifacts';
import { bulkCreateFigures } from './figures/bulk-create';
import { clickEconomyFigures } from './figures/click-economy';
import { contentionFigures } from './figures/contention';
import { mcpFigures } from './figures/mcp';
import { memoryFigures } from './figures/memory';
import { lookupFigures } from './figures/lookups';
import { lostCreateFigures } from './figures/lost-create';
import { overheadFigures } from './figures/overhead';
import { qrCodeFigures } from './figures/qr-code';
import { reportFigures } from './figures/reports';
import { sandboxRequestFigures } from './figures/sandbox-requests';
import { sharedKeyFigures } from './figures/shared-key';
import { sheetFigures } from './figures/sheet';
import { triggerEconomyFigures } from './figures/trigger-economy';
import { readFileSync, writeFileSync } from 'node:fs';
import { runId, withRun } from './lib/performance-doc';
import { formatTable, writeResults, type ResultRow } from './lib/results';

const ROOT = join(__dirname, '..');
const RESULTS = join(__dirname, 'results.json');
const PERFORMANCE_DOC = join(ROOT, 'docs', 'performance.md');

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Workspaces whose build failed in this run: their artifact rows are marked failed. */
const failedBuilds = new Set<string>();

/** Builds what the hosts ship; a failed build is logged and the figures that need it fail as rows. */
function build(): void {
  for (const workspace of ['n8n-nodes-shortlink', 'shortlink-zapier', 'shortlink-mcp']) {
    log(`build: ${workspace} …`);
    try {
      execFileSync('npm', ['run', 'build', '-w', workspace], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        // The Zapier CLI sends usage analytics unless told not to; a benchmark sends nothing anywhere.
        env: { ...process.env, DISABLE_ZAPIER_ANALYTICS: '1', NO_COLOR: '1' },
      });
    } catch (error) {
      failedBuilds.add(workspace);
      log(`build: ${workspace} FAILED (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
}

const quick = process.env.BENCH_QUICK === '1';

const FIGURES: Record<string, () => Promise<ResultRow[]>> = {
  // 600 = five full windows of 120: an ideal client scores exactly 1.0 on rate use.
  bulk: () => bulkCreateFigures({ items: quick ? 240 : 600, log }),
  // N clients on one key at once (n8n queue mode): N = 1 is the baseline of the same run; five runs of each,
  // since a single run hid the dips of issue 28.
  sharedKey: () => sharedKeyFigures({ items: quick ? 240 : 600, clients: [1, 4, 16], runs: quick ? 1 : 5, singleAtOnce: 20, log }),
  // What Find or Create's convergence costs: alone, with 4 contenders, and over a bulk run (issue 34).
  // 598 rows: the walk's 3 pages and the 1,196 creates and looks fill ten whole windows of 120.
  contention: () => contentionFigures({ links: quick ? 20 : 100, rounds: quick ? 5 : 20, bulkRows: quick ? 238 : 598, log }),
  trigger: () => triggerEconomyFigures({ existingLinks: quick ? 200 : 1000, bursts: quick ? [1, 150] : [1, 100, 250, 1000], backlog: quick ? 2_000 : 20_000, log }),
  clicks: () => clickEconomyFigures({ inScope: quick ? [0, 250] : [0, 50, 100, 1_000, 5_000, 10_000, 20_000], log }),
  overhead: () => overheadFigures({ rounds: quick ? 5 : 101, batch: 40, log }),
  memory: () => memoryFigures({ small: quick ? 100 : 1_000, large: quick ? 2_000 : 100_000, log }),
  // Every request of the sandbox (tests, bench and playground stand on it) costs the same at any account size.
  sandbox: () => sandboxRequestFigures({ small: quick ? 100 : 1_000, large: quick ? 5_000 : 100_000, rounds: quick ? 3 : 21, batch: 20, log }),
  lookups: () => lookupFigures({ accountLinks: 10_000, rows: quick ? 500 : 5_000, sample: quick ? 20 : 100, finds: quick ? 20 : 100, latencyMs: 250, log }),
  lostCreate: () => lostCreateFigures({ accountLinks: quick ? 2_000 : 10_000, log }),
  qrCode: () => qrCodeFigures({ rounds: quick ? 5 : 51, log }),
  mcp: () => mcpFigures({ ROOT, rounds: quick ? 5 : 51, batch: 20, starts: quick ? 3 : 9, log }),
  reports: () => reportFigures({ sizes: quick ? [10, 100] : [10, 100, 1_000], log }),
  // Issue 37: a 1,000-row preview on 10,000 links (goal: ⌈10,000/100⌉ + 2 requests) and the run's rate use.
  sheet: () => sheetFigures({ accountLinks: quick ? 2_000 : 10_000, rows: quick ? 200 : 1_000, runRows: quick ? 119 : 299, log }),
  artifacts: () => artifactFigures({ ROOT, coldRequireRuns: quick ? 3 : 15, failedBuilds, log }),
};

async function main(): Promise<void> {
  const started = Date.now();
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const selected = Object.keys(FIGURES).filter((name) => !only || only.includes(name));
  if (process.env.BENCH_SKIP_BUILD !== '1' && selected.some((name) => !['overhead', 'memory', 'sandbox'].includes(name))) build();
  const rows: ResultRow[] = [];
  /** The rows of each figure that was measured (a failed figure has none). */
  const measured = new Map<string, ResultRow[]>();
  for (const name of selected) {
    const figureStarted = Date.now();
    try {
      const figureRows = await FIGURES[name]!();
      rows.push(...figureRows);
      if (!figureRows.some((r) => Number.isNaN(r.value))) measured.set(name, figureRows);
    } catch (error) {
      // One broken figure must not hide the others: it becomes a failed row with its reason.
      const reason = error instanceof Error ? error.message : String(error);
      log(`${name}: FAILED: ${reason}`);
      rows.push({ name: `${name}: figure failed`, value: Number.NaN, unit: '', goal: null, baseline: null, met: false, note: reason });
    }
    log(`${name}: ${((Date.now() - figureStarted) / 1000).toFixed(0)} s`);
  }
  writeResults(RESULTS, rows);
  if (!quick && process.env.BENCH_NO_DOC !== '1' && measured.size > 0) writeDoc(measured, started);
  console.log(formatTable(rows));
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.name}: ${r.note}`);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
  const missed = rows.filter((r) => r.met === false).length;
  console.log(`\n${rows.length} rows, ${missed} goal(s) missed, ${((Date.now() - started) / 1000).toFixed(0)} s; written to bench/results.json`);
  // A missed goal is a finding; a figure that could not be measured at all is a broken bench.
  if (rows.some((r) => Number.isNaN(r.value))) process.exitCode = 1;
}

/** Writes this run's figures into docs/performance.md's table, with the command that made them. */
function writeDoc(measured: ReadonlyMap<string, ResultRow[]>, started: number): void {
  const settings = ['BENCH_ONLY', 'BENCH_SKIP_BUILD'].filter((name) => process.env[name]).map((name) => `${name}=${process.env[name]} `);
  const run = { id: runId(new Date(started)), command: `${settings.join('')}npm run bench`, node: process.version, seconds: Math.round((Date.now() - started) / 1000) };
  writeFileSync(PERFORMANCE_DOC, withRun(readFileSync(PERFORMANCE_DOC, 'utf8'), measured, run));
  console.log(`docs/performance.md: the rows of ${[...measured.keys()].join(', ')} written (run ${run.id})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
