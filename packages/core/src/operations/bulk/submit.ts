/**
 * The run of a reviewed sheet (issue 37): it takes the preview's review token, plays the verdicts again
 * against the account and refuses in words when the rows or the account's answers differ from the
 * preview's; then it creates the rows the preview said it would, in order, through the client's converging
 * Find or Create (paced by the client), and nothing else: links that exist and duplicate rows are handed
 * their link without a request, failing rows are not sent.
 *
 * Resumable: a run that stopped (time, Stop, a lost answer) is run again with the same token. Links made
 * since the preview that answer rows the preview said to create are taken as that run's work (those rows
 * count as created, their links taken out of the reading, the quota given back), so the verdicts match
 * again and only the rest is created.
 */
import type { ShortLinkClient } from '../../client';
import { CancelledError, DeadlineError, ForbiddenError, InputError, PlanQuotaError, ShortLinkError, UnknownOutcomeError } from '../../errors';
import { readLinkQuota } from '../../creating/quota-guard';
import { isSameLink } from '../../link-index/same-link';
import { targetFingerprint } from '../../link-index/entry';
import type { Link } from '../../types';
import { planSheet, type AccountView, type FailReason, type SheetPlan, type SheetRow, type Verdict } from './plan';
import { countsInWords, rowsFingerprint, verdictsFingerprint, type ReviewToken } from './review-token';
import { countVerdicts } from './plan';

export type OutcomeKind = 'created' | 'exists' | 'duplicate' | 'failed' | 'pending';

export interface Outcome {
  row: number;
  kind: OutcomeKind;
  verdict: Verdict;
  link?: Link;
  sameAsRow?: number;
  reason?: FailReason | 'service' | 'stopped';
  message?: string;
}

/**
 * The account as the client's link index reads it: one walk for every row (the first lookup walks, the
 * rest are answered from memory), the plan's quota and the verified domains read once.
 */
export function clientView(client: ShortLinkClient): AccountView {
  let left: Promise<number | null> | undefined;
  let domains: Promise<ReadonlySet<string> | undefined> | undefined;
  return {
    sameLinks: (input, reusableOnly) =>
      client.findLinks({ targetUrl: input.targetUrl, domain: input.domain ?? null, ...(input.slug === undefined ? {} : { slug: input.slug }), limit: 20, activeOnly: reusableOnly }),
    slugHolder: async (slug, domain) => (await client.findLinks({ slug, domain }))[0],
    verifiedDomains: () =>
      (domains ??= client.listDomains().then(
        (list) => new Set(list.map((domain) => String((domain as { hostname?: unknown }).hostname ?? '').toLowerCase()).filter((name) => name !== '')),
      )),
    linksLeft: () =>
      (left ??= client.getAccount().then((account) => {
        const reading = readLinkQuota(account);
        return reading ? Math.max(0, reading.quota - reading.used) : null;
      })),
  };
}

/** The view with some links taken out (made since the preview by its own run) and their links of the quota given back. */
function without(view: AccountView, hidden: ReadonlySet<string>): AccountView {
  const visible = (link: Link | undefined) => (link && !hidden.has(String(link.id)) ? link : undefined);
  return {
    sameLinks: async (input, reusableOnly) => (await view.sameLinks(input, reusableOnly)).filter((link) => visible(link)),
    slugHolder: async (slug, domain) => visible(await view.slugHolder(slug, domain)),
    verifiedDomains: () => view.verifiedDomains(),
    linksLeft: async () => {
      const left = await view.linksLeft();
      return left === null ? null : left + hidden.size;
    },
  };
}

function createdAtOf(link: Link): number {
  return typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN;
}

/**
 * How far the service's clock (createdAt) may be behind this client's for a link made since the preview
 * still to count as made since (tried only when the links made after the preview by this client's clock do
 * not explain the change). A link someone made this little before the preview can then be taken for the
 * run's own: the resumed run is refused ("the account changed") and a new preview settles it.
 */
const CLOCK_MARGIN_MS = 60_000;

/** The links that are the same as some row's and were made at or after `since` (service time), oldest first. */
async function linksMadeSince(rows: readonly SheetRow[], view: AccountView, since: number): Promise<Link[]> {
  const found = new Map<string, Link>();
  for (const row of rows) {
    if (!row.input) continue;
    for (const link of await view.sameLinks(row.input, false)) if (createdAtOf(link) >= since) found.set(String(link.id), link);
  }
  return [...found.values()].sort((a, b) => createdAtOf(a) - createdAtOf(b) || (String(a.id) < String(b.id) ? -1 : 1));
}

/**
 * Which of those links each row to create got in the earlier run: the rows in order, each the oldest link
 * left that is the same as its own — as the run made them, in order.
 */
function assignToRows(verdicts: readonly Verdict[], links: readonly Link[]): Map<number, Link> {
  const left = [...links];
  const done = new Map<number, Link>();
  for (const verdict of verdicts) {
    if (verdict.kind !== 'create' || !verdict.input) continue;
    const criteria = { targetUrl: verdict.input.targetUrl, domain: verdict.input.domain ?? null, ...(verdict.input.slug === undefined ? {} : { slug: verdict.input.slug }) };
    const at = left.findIndex((link) => isSameLink(link, criteria));
    if (at >= 0) done.set(verdict.row, left.splice(at, 1)[0]!);
  }
  return done;
}

export interface CheckedRun {
  verdicts: Verdict[];
  /** Rows the preview said to create whose link an earlier run of this token made: row → link. */
  doneBefore: Map<number, Link>;
}

/**
 * The verdicts of the rows now, when they are the ones the token was made for (directly, or once the links
 * made since the preview for its own rows are set aside); otherwise an InputError saying what changed.
 */
export async function checkAgainstToken(
  rows: readonly SheetRow[],
  token: ReviewToken,
  view: AccountView,
  options: { reuseInactive: boolean; now: number; tokenField: { key: string; label: string }; onRow?: (done: number, total: number) => void },
): Promise<CheckedRun> {
  const { tokenField } = options;
  if (token.rows !== rows.length || token.rowsFingerprint !== rowsFingerprint(rows, options)) {
    const count = token.rows !== rows.length ? ` The preview had ${token.rows} rows; these are ${rows.length}.` : ' A URL, UTM value, domain, slug or title, or an option, differs from the preview.';
    throw new InputError(tokenField.key, `These rows are not the ones previewed with this "${tokenField.label}", so nothing was created.${count} Preview the rows as they are now and submit them with the new review token.`);
  }
  const plan = { reuseInactive: options.reuseInactive, now: options.now, ...(options.onRow ? { onRow: options.onRow } : {}) };
  const first = await planSheet(rows, view, plan);
  if (verdictsFingerprint(first.verdicts) === token.verdictsFingerprint) return { verdicts: first.verdicts, doneBefore: new Map() };
  // Links made since the preview that are the very links of rows (an earlier run of this token): set aside,
  // the rows must give the preview's verdicts again.
  // Made since the preview by this client's clock first; then allowing the service's clock to be behind.
  const recent = await linksMadeSince(rows, view, token.previewAt - CLOCK_MARGIN_MS);
  let tried = 0;
  // (A link stamped in the very millisecond the preview began was there for the preview to see.)
  for (const since of [token.previewAt + 1, token.previewAt - CLOCK_MARGIN_MS]) {
    const made = recent.filter((link) => createdAtOf(link) >= since);
    if (made.length === tried) continue;
    tried = made.length;
    const again = await planSheet(rows, without(view, new Set(made.map((link) => String(link.id)))), plan);
    if (verdictsFingerprint(again.verdicts) === token.verdictsFingerprint) return { verdicts: again.verdicts, doneBefore: assignToRows(again.verdicts, made) };
  }
  throw new InputError(
    tokenField.key,
    `The account changed since the preview, so nothing was created: the preview showed ${countsInWords(token.counts)}; now the rows give ${countsInWords(countVerdicts(first.verdicts))} (a link made, changed or deleted, a slug taken, or the plan's links left). Preview the rows again and submit them with the new review token.`,
  );
}

export interface SubmitOptions {
  reuseInactive: boolean;
  now: () => number;
  signal?: AbortSignal;
  /** Epoch ms by which the run must stop sending (what is left stays pending for the next run). */
  endAt?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Time a create may need with its lookups (and a pacing wait); rows are not started with less left. */
const TIME_PER_CREATE_MS = 3_000;

function isStop(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof DeadlineError && !error.outcomeUnknown);
}

function isQuotaRefusal(error: unknown): boolean {
  return error instanceof PlanQuotaError || (error instanceof ForbiddenError && error.reason === 'quota');
}

/** Whether the create may have stored a link: the next run of the token settles it (the row is pending). */
function mayHaveStored(error: unknown): boolean {
  return error instanceof UnknownOutcomeError || (error instanceof DeadlineError && error.outcomeUnknown);
}

/** Creates what the checked verdicts say, in order; returns one outcome per row. */
/**
 * Creates under way at once. Rows of different targets are never the same link, so they may overlap: the
 * client's pacer keeps the pace, and a window's requests are not held up by one request's round trip.
 * Rows of one target (and domain) go one after the other, in the sheet's order, as the preview played them.
 */
const CREATES_AT_ONCE = 3;

/** A FIFO of slots: at most `size` bodies run at once, started in the order they asked. */
function slots(size: number): <T>(body: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: Array<() => void> = [];
  return async (body) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await body();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

export async function submitSheet(client: ShortLinkClient, checked: CheckedRun, options: SubmitOptions): Promise<Outcome[]> {
  const running: Promise<Outcome>[] = [];
  const finished: Outcome[] = [];
  let quotaRefusedAfter: number | undefined;
  let stopped: string | undefined;
  let created = 0;
  let done = 0;
  const inSlot = slots(CREATES_AT_ONCE);
  /** The last create of each target (and domain): the next one of it waits for it. */
  const lastOfTarget = new Map<string, Promise<Outcome>>();
  for (const verdict of checked.verdicts) {
    const outcome = (async () => {
      const result = await outcomeOf(verdict);
      finished[verdict.row - 1] = result;
      options.onProgress?.(++done, checked.verdicts.length);
      return result;
    })();
    running.push(outcome);
    if (verdict.kind === 'create') lastOfTarget.set(targetKeyOf(verdict), outcome);
  }
  return Promise.all(running);

  function targetKeyOf(verdict: Verdict): string {
    return `${(verdict.input?.domain ?? '').toLowerCase()}|${targetFingerprint(verdict.input?.targetUrl)}`;
  }

  async function outcomeOf(verdict: Verdict): Promise<Outcome> {
    if (verdict.kind === 'duplicate') await running[verdict.sameAsRow! - 1];
    if (verdict.kind === 'create') {
      const before = lastOfTarget.get(targetKeyOf(verdict));
      if (before) await before;
      return inSlot(() => outcomeNow(verdict));
    }
    return outcomeNow(verdict);
  }

  async function outcomeNow(verdict: Verdict): Promise<Outcome> {
    const base = { row: verdict.row, verdict };
    switch (verdict.kind) {
      case 'fail':
        return { ...base, kind: 'failed', ...(verdict.reason ? { reason: verdict.reason } : {}), ...(verdict.message ? { message: verdict.message } : {}) };
      case 'exists':
        return { ...base, kind: 'exists', link: verdict.link! };
      case 'duplicate': {
        const first = finished[verdict.sameAsRow! - 1];
        if (first?.link) return { ...base, kind: 'duplicate', link: first.link, sameAsRow: verdict.sameAsRow! };
        const kind = first?.kind === 'pending' ? 'pending' : 'failed';
        return { ...base, kind, sameAsRow: verdict.sameAsRow!, reason: first?.reason ?? 'service', message: `The same link as row ${verdict.sameAsRow}, which ${kind === 'pending' ? 'is not done yet' : 'failed'}: ${first?.message ?? ''}`.trim() };
      }
      case 'create':
        return create(verdict);
    }
  }

  async function create(verdict: Verdict): Promise<Outcome> {
    const base = { row: verdict.row, verdict };
    const before = checked.doneBefore.get(verdict.row);
    if (before) return { ...base, kind: 'created', link: before, message: 'Created by an earlier run of this preview.' };
    if (quotaRefusedAfter !== undefined) {
      return { ...base, kind: 'failed', reason: 'quota', message: `The service refused a new link for the plan's quota after ${quotaRefusedAfter} created in this run (another step may have used links since the preview); this row was not sent. Run it again next month or after raising the quota.` };
    }
    if (stopped === undefined) {
      if (options.signal?.aborted) stopped = 'The run was stopped before this row.';
      else if (options.endAt !== undefined && options.endAt - options.now() < TIME_PER_CREATE_MS) stopped = 'The run\'s time ran out before this row.';
    }
    if (stopped !== undefined) return pending(base, stopped);
    try {
      const { link, created: made } = await client.findOrCreateLink(verdict.input!, { reuseInactive: options.reuseInactive });
      if (made) created++;
      // Someone made the very link between the check and this create: it is found, not made twice.
      return made ? { ...base, kind: 'created', link: link as Link } : { ...base, kind: 'exists', link: link as Link, message: 'Made by someone else after the preview: found, not created.' };
    } catch (error) {
      if (isStop(error)) {
        stopped = error instanceof ShortLinkError ? error.message : 'The run was stopped.';
        return pending(base, stopped);
      }
      if (mayHaveStored(error)) return pending(base, (error as Error).message);
      if (isQuotaRefusal(error)) {
        quotaRefusedAfter = created;
        return { ...base, kind: 'failed', reason: 'quota', message: (error as Error).message };
      }
      if (error instanceof ShortLinkError) return { ...base, kind: 'failed', reason: 'service', message: error.message };
      throw error;
    }
  }
}

function pending(base: { row: number; verdict: Verdict }, why: string): Outcome {
  return { ...base, kind: 'pending', reason: 'stopped', message: `${why} Run again with the same review token to finish: rows already done are not created twice.` };
}

export type { SheetPlan };
