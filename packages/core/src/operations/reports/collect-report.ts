/**
 * The requests of a report: one walk over the account's links (one request per 100 links) to pick the
 * selected ones, then one statistics request per selected link, all through the client (so paced at the
 * service's rate like every other call, and ended at once by the host's stop signal). A report that cannot
 * be complete fails with an error; it never returns part of a table.
 */
import { MAX_PAGE_SIZE } from '../../basics/page-size';
import { InputError, NotFoundError } from '../../errors';
import type { ShortLinkClient } from '../../client';
import type { Link } from '../../types';
import { chosenEntryOf, describeSelection, isSelected, type LinkSelection } from './link-selection';
import type { ReportLink } from './report-rows';
import { isQrSibling, qrPairKey } from './qr-sibling';
import type { OperationProgress } from '../operation';
import type { PacingState } from '../../http/pacer';

/** Links one report covers at most: 1,000 statistics requests are about 9 minutes at 120 requests a minute. */
export const MAX_REPORT_LINKS = 1000;
/**
 * Requests a report may send when the host gives a run a hard time limit (a Zapier step: 25 s): the
 * service's 120 a minute, less a share for the key's other work. More would wait for the next minute,
 * past the step's end, so such a report is refused before its statistics are read.
 */
export const TIME_LIMITED_MAX_REQUESTS = 100;

export interface CollectOptions {
  /** The host limits one run's time (Zapier): the report refuses above TIME_LIMITED_MAX_REQUESTS. */
  timeLimited?: boolean;
  /** Label of the field that chose the links, for errors saying what to narrow. */
  selectionLabel?: string;
  /**
   * Epoch ms by which the whole call must end (OperationContext.deadlineAt, e.g. MCP's time limit): a
   * report whose statistics requests cannot all be sent by then at the service's rate is refused before
   * the first of them, saying what to narrow.
   */
  deadlineAt?: number;
  now?: () => number;
  /** Hears how far the report has come, in requests: the list pages, then one per link (OperationContext.onProgress). */
  onProgress?: (progress: OperationProgress) => void;
}

export interface CollectedReport {
  links: ReportLink[];
  /** Requests sent: list pages plus one per link. */
  requests: number;
}

/** The selected links in list order (chosen links: in the order given), each with its statistics. */
export async function collectReport(client: ShortLinkClient, selection: LinkSelection, options: CollectOptions = {}): Promise<CollectedReport> {
  const { links, pages } = await selectLinks(client, selection, options.onProgress);
  checkSize(links.length, pages, selection, options);
  if (options.deadlineAt !== undefined) checkTimeLeft(links.length, selection, options.deadlineAt, (options.now ?? Date.now)(), client.pacingState());
  const out: ReportLink[] = [];
  const total = pages + links.length;
  for (const link of links) {
    out.push({ link, stats: await client.getLinkStats(String(link.id)) });
    options.onProgress?.({ done: pages + out.length, total, message: `Read the clicks of ${out.length} of ${links.length} links.` });
  }
  return { links: out, requests: pages + links.length };
}

/**
 * The QR siblings of the picked links that the selection left out (a sibling's utm_medium is "qr", so a
 * campaign report for medium "email" would miss the scans of the newsletter's printed code).
 */
function siblingsOf(picked: readonly Link[], siblings: readonly Link[]): Link[] {
  const keys = new Set(picked.filter((link) => !isQrSibling(link)).map(qrPairKey));
  const ids = new Set(picked.map((link) => String(link.id)));
  return siblings.filter((link) => !ids.has(String(link.id)) && keys.has(qrPairKey(link)));
}

async function selectLinks(client: ShortLinkClient, selection: LinkSelection, onProgress: CollectOptions['onProgress']): Promise<{ links: Link[]; pages: number }> {
  const picked: Link[] = [];
  const siblings: Link[] = [];
  let seen = 0;
  for await (const link of client.iterateLinks({ pageSize: MAX_PAGE_SIZE })) {
    seen++;
    if (isSelected(link, selection)) picked.push(link);
    if (isQrSibling(link)) siblings.push(link);
    // A page read (the count of requests so far; the total is known once the list ends).
    if (seen % MAX_PAGE_SIZE === 0) onProgress?.({ done: seen / MAX_PAGE_SIZE, message: `Looked through ${seen.toLocaleString('en-US')} links of the account; ${picked.length} in the report so far.` });
  }
  // The client reads a last page too when the account fills its pages exactly; count what was asked.
  const pages = Math.max(1, Math.ceil(seen / MAX_PAGE_SIZE));
  if (selection.kind !== 'chosen') return { links: [...picked, ...siblingsOf(picked, siblings)], pages };
  const byEntry = new Map<string, Link>();
  for (const link of picked) {
    const entry = chosenEntryOf(link, selection.links);
    if (entry !== undefined && !byEntry.has(entry)) byEntry.set(entry, link);
  }
  const missing = selection.links.filter((entry) => !byEntry.has(entry));
  if (missing.length > 0) {
    throw new NotFoundError({ title: 'Not found', message: `No link of this account is ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} (chosen links). Check the IDs or short URLs.` });
  }
  const ordered = selection.links.map((entry) => byEntry.get(entry)!);
  const chosen = ordered.filter((link, index) => ordered.findIndex((other) => other.id === link.id) === index);
  return { links: [...chosen, ...siblingsOf(chosen, siblings)], pages };
}

/** The service's documented rate when the client has not learned one: 120 requests a minute. */
const DEFAULT_RATE = { limit: 120, windowMs: 60_000 };

/**
 * Requests the service takes within `leftMs` at its rate: what is left of the current window, then a full
 * window's worth at each window start before the time is up (the limit as the client learned it).
 */
export function requestsThatFit(leftMs: number, now: number, pacing: PacingState): number {
  const limit = pacing.limit ?? DEFAULT_RATE.limit;
  const resetInMs = pacing.resetAtMs !== undefined && pacing.resetAtMs > now ? pacing.resetAtMs - now : 0;
  // Now: what the current window has left (a whole window when none is known to be running).
  const nowBudget = resetInMs > 0 ? Math.min(limit, pacing.remaining ?? limit) : limit;
  // Then a whole window's worth at every window start before the time is up.
  const windowStarts = resetInMs > 0 ? (leftMs > resetInMs ? 1 + Math.floor((leftMs - resetInMs) / DEFAULT_RATE.windowMs) : 0) : Math.floor(leftMs / DEFAULT_RATE.windowMs);
  return nowBudget + windowStarts * limit;
}

function checkTimeLeft(count: number, selection: LinkSelection, deadlineAt: number, now: number, pacing: PacingState): void {
  const leftMs = deadlineAt - now;
  const fit = Math.max(0, requestsThatFit(leftMs, now, pacing) - 1);
  if (count <= fit) return;
  throw new InputError(
    'links',
    `The report would cover ${count} ${describeSelection(selection)}: one request per link is more than the service takes in the ${Math.max(0, Math.round(leftMs / 1000))} s this call has left (about ${fit} links at its rate of ${pacing.limit ?? DEFAULT_RATE.limit} requests a minute). Nothing more was sent. ${narrowingAdvice(selection)} Or give the call more time.`,
  );
}

/** How to make a report of this selection smaller, in the form's words for that selection. */
export function narrowingAdvice(selection: LinkSelection): string {
  switch (selection.kind) {
    case 'campaign':
      return 'Narrow it: add a Source or Medium to the campaign, or choose the links.';
    case 'created':
      return 'Narrow it: choose a shorter "Created" range, or choose the links.';
    case 'domain':
      return 'Narrow it: choose links of one campaign, links created in a shorter range, or choose the links.';
    case 'chosen':
      return 'Narrow it: choose fewer links.';
    default:
      return 'Narrow it: choose the links of one campaign, of a domain, created in a date range, or choose the links.';
  }
}

function checkSize(count: number, pages: number, selection: LinkSelection, options: CollectOptions): void {
  const field = options.selectionLabel ?? 'Links';
  const narrow = narrowingAdvice(selection);
  if (count > MAX_REPORT_LINKS) {
    throw new InputError('links', `The report would cover ${count} ${describeSelection(selection)}; a report covers at most ${MAX_REPORT_LINKS} links ("${field}"). ${narrow}`);
  }
  if (options.timeLimited && pages + count > TIME_LIMITED_MAX_REQUESTS) {
    const room = Math.max(0, TIME_LIMITED_MAX_REQUESTS - pages);
    throw new InputError(
      'links',
      `The report would cover ${count} ${describeSelection(selection)}: one request per link plus ${pages} to list the account is more than a step can send in its time (${TIME_LIMITED_MAX_REQUESTS} requests, so at most ${room} links here). ${narrow} Split the report into several steps, or run it in n8n.`,
    );
  }
}
