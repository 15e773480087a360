/**
 * Child process of the memory figure: walks every link of an account and reports on its own memory, so
 * that the numbers hold nothing but this walk (the sandbox and its links live in the parent).
 * BENCH_MODE:
 * - `iterate`: the core's iterateLinks, one link at a time; reports the peak RSS.
 * - `collect` (the baseline): every page kept in one array, as "list everything" code does; peak RSS.
 * - `retained`: iterateLinks again, with a full GC every RETAINED_SAMPLE links (needs --expose-gc); reports
 *   the largest heap left after a GC, i.e. what the walk keeps alive, apart from garbage not yet collected.
 * Input by environment (the key never appears on a command line): BENCH_BASE_URL, BENCH_API_KEY.
 * Output: one JSON line { count, maxRssKb, retainedHeapKb? }.
 */
import { createClient, type Link } from '@shortlink/core';

const RETAINED_SAMPLE = 5_000;

async function main(): Promise<void> {
  const baseUrl = process.env.BENCH_BASE_URL;
  const apiKey = process.env.BENCH_API_KEY;
  if (!baseUrl || !apiKey) throw new Error('BENCH_BASE_URL and BENCH_API_KEY are required');
  const mode = process.env.BENCH_MODE ?? 'iterate';
  const client = createClient({ baseUrl, apiKey });
  let count = 0;
  let retainedHeapKb: number | undefined;
  if (mode === 'collect') {
    const all: Link[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await client.listLinks(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
      all.push(...page.links);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    count = all.length;
  } else {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (mode === 'retained' && !gc) throw new Error('mode retained needs node --expose-gc');
    for await (const link of client.iterateLinks({ pageSize: 100 })) {
      if (link.id) count++;
      if (mode === 'retained' && count % RETAINED_SAMPLE === 0) {
        gc!();
        retainedHeapKb = Math.max(retainedHeapKb ?? 0, process.memoryUsage().heapUsed / 1024);
      }
    }
    if (mode === 'retained') {
      gc!(); // a walk shorter than one sample still gets a reading (after it ended)
      retainedHeapKb = Math.max(retainedHeapKb ?? 0, process.memoryUsage().heapUsed / 1024);
    }
  }
  const result: { count: number; maxRssKb: number; retainedHeapKb?: number } = { count, maxRssKb: process.resourceUsage().maxRSS };
  if (retainedHeapKb !== undefined) result.retainedHeapKb = Math.round(retainedHeapKb);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
