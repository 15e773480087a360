/**
 * Issue 37: a campaign sheet checked before it runs (Find or Create Many).
 * - Preview cost: one preview of `rows` rows on an account of `accountLinks` links — some rows already
 *   there, some the same link as an earlier row, some new, some on the custom domain — counted in requests
 *   against the goal ⌈links/100⌉ + 2 (one walk of the account, the plan's links left, the verified domains).
 *   Baseline: what the rows cost when each is looked up on its own (a Zapier step, an agent's call: one
 *   walk each), computed from the same walk, not run.
 * - Rate use of the run: Submit of `runRows` rows to create on a sandbox with a scaled window (120 per 6 s),
 *   every request it sends (its check's walk and plan reading, each create and its look for twins) against
 *   what the window allows in the run's span (lib/statistics.ts rateUse).
 */
import { createClient } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { startSandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { markRequests, requestsSince } from '../lib/sandbox-requests';
import { rateUse } from '../lib/statistics';
import { countStatuses } from '../lib/status-counter';
import { WINDOW } from './bulk-create';

export interface SheetOptions {
  accountLinks: number;
  rows: number;
  /** Rows the measured run creates; chosen so that its requests fill whole windows (rate use 1.0 is ideal). */
  runRows: number;
  log: (line: string) => void;
}

const many = operationByKey('link.findOrCreateMany');
const DOMAIN = 'go.bench.example';

async function previewCost(options: SheetOptions): Promise<ResultRow> {
  const { accountLinks, rows, log } = options;
  const sandbox = await startSandbox({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
  try {
    const { accountId, apiKey } = sandbox.createAccount({ name: 'Sheet preview', email: 'sheet-preview@bench.example', plan: 'business' });
    sandbox.addDomain(accountId, DOMAIN);
    const seeded = sandbox.seedLinks(accountId, accountLinks, { label: 'sheet' });
    // A tenth of the rows already have their link, a tenth repeat an earlier row, a twentieth are on the custom domain.
    const sheet = Array.from({ length: rows }, (_, i) => {
      if (i % 10 === 1) return { targetUrl: seeded[(i * 7) % seeded.length]!.targetUrl };
      if (i % 10 === 2) return { targetUrl: `https://example.org/sheet-new/${i - 2}`, utmSource: 'Newsletter' };
      if (i % 20 === 3) return { targetUrl: `https://example.org/sheet-domain/${i}`, domain: DOMAIN };
      return { targetUrl: `https://example.org/sheet-new/${i}`, utmSource: 'newsletter' };
    });
    const mark = markRequests(sandbox);
    const started = performance.now();
    const result = await runOperation(many, createClient({ baseUrl: sandbox.baseUrl, apiKey }), { mode: 'preview', rows: sheet });
    const seconds = (performance.now() - started) / 1000;
    const requests = requestsSince(sandbox, mark);
    const lists = requestsSince(sandbox, mark, { path: '/api/v1/links' });
    const s = result.summary!;
    log(`sheet preview: ${rows} rows on ${accountLinks} links: ${requests} requests (${lists} list pages) in ${seconds.toFixed(1)} s; ${s.willCreate} to create, ${s.alreadyExist} there, ${s.duplicates} duplicates, ${s.willFail} failing`);
    const goal = Math.ceil(accountLinks / 100) + 2;
    return row(`Sheet preview: ${rows} rows on ${accountLinks} links — requests`, requests, 'requests', { op: '<=', target: goal }, `${rows * Math.ceil(accountLinks / 100)} (a walk per row)`,
      `${lists} list pages, ${requests - lists} other (the plan, the domains); ${s.willCreate} to create, ${s.alreadyExist} there, ${s.duplicates} duplicates, ${s.willFail} failing; ${seconds.toFixed(1)} s`);
  } finally {
    await sandbox.close();
  }
}

async function runRateUse(options: SheetOptions): Promise<ResultRow> {
  const { runRows, log } = options;
  const sandbox = await startSandbox({ rateLimit: { ...WINDOW } });
  try {
    const { apiKey } = sandbox.createAccount({ name: 'Sheet run', email: 'sheet-run@bench.example', plan: 'business' });
    const sheet = Array.from({ length: runRows }, (_, i) => ({ targetUrl: `https://example.org/sheet-run/${i}`, utmCampaign: 'Bench Run' }));
    const preview = await runOperation(many, createClient({ baseUrl: sandbox.baseUrl, apiKey }), { mode: 'preview', rows: sheet });
    // The run starts in a fresh window, as the measured one of the bulk figure does.
    await new Promise((resolve) => setTimeout(resolve, WINDOW.windowSeconds * 1000 + 200));
    const counter = countStatuses(sandbox.baseUrl);
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
    const started = performance.now();
    const result = await runOperation(many, client, { mode: 'submit', rows: sheet, reviewToken: preview.summary!.reviewToken });
    const spanMs = performance.now() - started;
    const accepted = counter.total() - counter.count(429);
    const tooMany = counter.count(429);
    counter.stop();
    const use = rateUse(accepted, spanMs, WINDOW.limit, WINDOW.windowSeconds * 1000);
    const created = Number(result.summary!.created);
    log(`sheet run: ${created} of ${runRows} created, ${accepted} requests accepted, ${tooMany}×429 in ${(spanMs / 1000).toFixed(1)} s: rate use ${use.toFixed(3)}`);
    return row(`Sheet run: ${runRows} rows created after the preview — rate use`, use, 'achieved/allowed', { op: '>=', target: 0.95 }, null,
      `${created} created, ${accepted} requests accepted (the check's walk and plan, a create and a look for twins per row), ${tooMany}×429 in ${(spanMs / 1000).toFixed(1)} s at ${WINDOW.limit} per ${WINDOW.windowSeconds} s`);
  } finally {
    await sandbox.close();
  }
}

export async function sheetFigures(options: SheetOptions): Promise<ResultRow[]> {
  return [await previewCost(options), await runRateUse(options)];
}
