/**
 * Figure 4: memory of walking all links with iterateLinks, 100 000 links against 1 000. Each walk runs in a
 * child process of its own (children/iterate-links.ts, bundled to plain JavaScript first: through a
 * TypeScript loader the RSS would mostly measure the loader), so its numbers are clean; the sandbox holding
 * the links lives here in the parent.
 * - Peak RSS (the figure): median of three walks per size.
 * - Retained heap: the largest heap left after a forced GC during the walk, i.e. what the walk keeps alive;
 *   it tells growth that is garbage not yet collected apart from growth that is held.
 * - Baseline in the same run: collecting every page into one array.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { seedLinks } from '../lib/seed-links';
import { median } from '../lib/statistics';

const run = promisify(execFile);
const CHILD_SOURCE = join(__dirname, '..', 'children', 'iterate-links.ts');
const PEAK_REPEATS = 3;

type Mode = 'iterate' | 'collect' | 'retained';

interface Walk {
  count: number;
  maxRssKb: number;
  retainedHeapKb?: number;
}

async function bundleChild(dir: string): Promise<string> {
  const outfile = join(dir, 'iterate-links.cjs');
  await build({ entryPoints: [CHILD_SOURCE], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node22', logLevel: 'warning' });
  return outfile;
}

/** One walk in a fresh child (async: the sandbox in this process must keep answering). */
async function walk(child: string, target: { baseUrl: string; apiKey: string }, mode: Mode, expected: number): Promise<Walk> {
  const flags = mode === 'retained' ? ['--expose-gc'] : [];
  const { stdout } = await run(process.execPath, [...flags, child], {
    env: { ...process.env, BENCH_BASE_URL: target.baseUrl, BENCH_API_KEY: target.apiKey, BENCH_MODE: mode },
    maxBuffer: 1024 * 1024,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as Walk;
  if (result.count !== expected) throw new Error(`memory: a ${mode} walk saw ${result.count} links, expected ${expected}`);
  return result;
}

async function medianPeakKb(child: string, target: { baseUrl: string; apiKey: string }, expected: number): Promise<number> {
  const peaks: number[] = [];
  for (let i = 0; i < PEAK_REPEATS; i++) peaks.push((await walk(child, target, 'iterate', expected)).maxRssKb);
  return median(peaks);
}

async function accountWith(sandbox: Sandbox, links: number, log: (line: string) => void) {
  const { apiKey } = sandbox.createAccount({ name: `Memory ${links}`, email: `memory-${links}@bench.example`, plan: 'business' });
  const started = Date.now();
  await seedLinks({ baseUrl: sandbox.baseUrl, apiKey }, links, `memory-${links}`);
  log(`memory: created ${links} links in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { baseUrl: sandbox.baseUrl, apiKey };
}

export interface MemoryOptions {
  small: number;
  large: number;
  log: (line: string) => void;
}

const mb = (kb: number) => (kb / 1024).toFixed(1);

export async function memoryFigures({ small, large, log }: MemoryOptions): Promise<ResultRow[]> {
  const sandbox = await startSandbox({ rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  const dir = mkdtempSync(join(tmpdir(), 'shortlink-bench-'));
  try {
    const smallAccount = await accountWith(sandbox, small, log);
    const largeAccount = await accountWith(sandbox, large, log);
    const child = await bundleChild(dir);
    log('memory: walking in child processes …');
    const peakSmall = await medianPeakKb(child, smallAccount, small);
    const peakLarge = await medianPeakKb(child, largeAccount, large);
    const retainedSmall = (await walk(child, smallAccount, 'retained', small)).retainedHeapKb!;
    const retainedLarge = (await walk(child, largeAccount, 'retained', large)).retainedHeapKb!;
    const collectSmall = (await walk(child, smallAccount, 'collect', small)).maxRssKb;
    const collectLarge = (await walk(child, largeAccount, 'collect', large)).maxRssKb;
    log(
      `  peak RSS ${mb(peakSmall)} → ${mb(peakLarge)} MB; retained heap ${mb(retainedSmall)} → ${mb(retainedLarge)} MB; ` +
        `collect-all peak ${mb(collectSmall)} → ${mb(collectLarge)} MB`,
    );
    return [
      row(
        `Memory: iterateLinks peak RSS, ${large} vs ${small} links`,
        peakLarge / peakSmall,
        '× (flat = 1)',
        { op: '<=', target: 1.2 },
        Number((collectLarge / collectSmall).toFixed(2)),
        `${mb(peakSmall)} MB → ${mb(peakLarge)} MB (median of ${PEAK_REPEATS}); baseline, all pages in one array: ${mb(collectSmall)} MB → ${mb(collectLarge)} MB`,
      ),
      row(
        `Memory: iterateLinks retained heap, ${large} vs ${small} links`,
        retainedLarge / retainedSmall,
        '× (flat = 1)',
        { op: '<=', target: 1.2 },
        null,
        `largest heap after a forced GC during the walk: ${mb(retainedSmall)} MB → ${mb(retainedLarge)} MB`,
      ),
      row(`Memory: iterateLinks peak RSS over ${large} links`, Number(mb(peakLarge)), 'MB', null, Number(mb(collectLarge)), 'baseline: all pages in one array'),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
