/**
 * POST /links exactly once as far as the account can tell (docs/guarantees.md, "The create rule"). When the
 * outcome of a create is unknown, the account is asked (lost-create.ts) before anything is answered or sent
 * again: the request's own link is the answer; "nothing stored" allows one more send; anything else ends in
 * UnknownOutcomeError, which says what was sent, that the link may exist and how to check.
 */
import { randomSlug } from './create-marker';
import { OWN_CREATE_SETTLE_MS, settleLostCreate, type Settlement } from './lost-create';
import type { ServiceClock } from './service-clock';
import type { PageReader } from './window-walk';
import {
  ConflictError,
  DeadlineError,
  NetworkError,
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  UnknownOutcomeError,
} from '../errors';
import type { CreateLinkInput, Link, LinkCreated } from '../types';

export interface CreateOnceIo {
  /** Sends the POST; `reserveMs` is kept back from the call's time for the lookup. */
  post(body: CreateLinkInput, reserveMs: number): Promise<{ status: number; body: unknown; headers: Record<string, string | undefined> }>;
  /** Reads the created link from a 2xx answer (throws when it cannot be read). */
  readCreated(answer: { status: number; body: unknown; headers: Record<string, string | undefined> }): LinkCreated;
  readPage: PageReader;
  pause(ms: number): Promise<void>;
  now(): number;
  /** Time left in the call, ms. */
  timeLeftMs(): number;
  /** Our clock when the service's Date header was last read, and what it said (undefined: none yet). */
  lastDate(): { serviceMs: number; localMs: number } | undefined;
  clock: ServiceClock;
  claimed: ReadonlySet<string>;
  /** Records a link as handed out by this client (never handed out again); `sent`: it came from a 201 to this body. */
  claim(link: Link | LinkCreated, sent?: CreateLinkInput): void;
  /** Random source of the marker slug. */
  random(): number;
}

export interface CreateOnceOptions {
  maxRetries: number;
  /** Time the lookup needs after a request; the POST may not use it. */
  reserveMs: number;
  /** Send a slug this client chose (a marker only this request can have) when the input has none. */
  markCreates: boolean;
}

/** Statuses and failures after which a create may or may not have been stored. */
export function createOutcomeUnknown(error: unknown): boolean {
  if (error instanceof ServerError) return true;
  if (error instanceof NetworkError) return error.outcomeUnknown;
  // A 2xx whose body could not be read (too large, cut off, not JSON): stored, but unreadable. A 3xx is
  // also "unexpected", but a redirect processed nothing.
  return error instanceof UnexpectedResponseError && (error.status === undefined || (error.status >= 200 && error.status < 300));
}

export async function createOnce(io: CreateOnceIo, input: CreateLinkInput, options: CreateOnceOptions): Promise<LinkCreated | Link> {
  const marked = options.markCreates && input.slug === undefined;
  const body: CreateLinkInput = marked ? { ...input, slug: randomSlug(io.random) } : input;
  let firstSentAt: number | undefined;
  /** When the last attempt that may have stored the link failed: the end of a resend's 409 window. */
  let lastLostAt = 0;
  for (let attempt = 0; ; attempt++) {
    const sentAt = io.now();
    firstSentAt ??= sentAt;
    const dateBefore = io.lastDate();
    let lost: ShortLinkError;
    let stored = false;
    try {
      const answer = await io.post(body, options.reserveMs);
      learnDate(io, dateBefore, sentAt);
      try {
        const created = io.readCreated(answer);
        io.clock.observeOwnCreate(Date.parse(String(created.createdAt)), sentAt, io.now());
        io.claim(created, body);
        return created;
      } catch (unreadable) {
        // A 2xx means the link was stored; only its description was lost.
        lost = unreadable as ShortLinkError;
        stored = true;
      }
    } catch (error) {
      learnDate(io, dateBefore, sentAt);
      if (attempt > 0 && error instanceof ConflictError && body.slug !== undefined) {
        // The slug is taken on a resend: an earlier attempt of this very create may hold it (a lagging list hid it).
        return settleConflict(io, { wanted: body, marked, sentAt: firstSentAt, failedAt: lastLostAt, claimed: io.claimed }, error);
      }
      if (!createOutcomeUnknown(error)) throw error;
      lost = error as ShortLinkError;
    }

    lastLostAt = io.now();
    const settlement = await settle(io, { wanted: body, marked, sentAt, failedAt: lastLostAt, claimed: io.claimed }, lost);
    if (settlement.kind === 'own') {
      io.claim(settlement.link);
      return settlement.link;
    }
    if (settlement.kind === 'unknown') throw unknownCreateOutcome(lost, body, settlement.why);
    if (stored) throw unknownCreateOutcome(lost, body, 'the service said it was created, but it is not in the list of links yet');
    // Read twice, a settle delay apart, and the whole window holds none: sending again cannot make a second link.
    if (attempt >= options.maxRetries || io.timeLeftMs() <= options.reserveMs) throw nothingStored(lost);
  }
}

/** The Date header of the create's own answer, if one came: read between the send and now. */
function learnDate(io: CreateOnceIo, before: { serviceMs: number; localMs: number } | undefined, sentAt: number): void {
  const after = io.lastDate();
  if (after && after !== before && after.localMs >= sentAt) io.clock.observeDate(after.serviceMs, sentAt, after.localMs);
}

/** The lookup reads harmlessly: on a network as bad as the one that lost the answer, it gets rounds of its own. */
async function settle(io: CreateOnceIo, lost: Parameters<typeof settleLostCreate>[1], failure: ShortLinkError): Promise<Settlement> {
  for (let round = 1; ; round++) {
    try {
      return await settleLostCreate({ readPage: io.readPage, pause: io.pause, clock: io.clock }, lost);
    } catch (lookupError) {
      const transient = lookupError instanceof ServerError || lookupError instanceof NetworkError || lookupError instanceof UnexpectedResponseError;
      const why = `looking for it failed (${(lookupError as Error).message.replace(/\.$/, '')})`;
      if (!transient || round >= 3 || io.timeLeftMs() < 2_000) throw unknownCreateOutcome(failure, lost.wanted, why);
      await io.pause(OWN_CREATE_SETTLE_MS);
    }
  }
}

/** A resend's 409: the slug's holder is returned when it is provably this create's; else the outcome is unknown. */
async function settleConflict(io: CreateOnceIo, lost: Parameters<typeof settleLostCreate>[1], conflict: ConflictError): Promise<Link> {
  const settlement = await settle(io, lost, conflict);
  if (settlement.kind === 'own') {
    io.claim(settlement.link);
    return settlement.link;
  }
  const why =
    settlement.kind === 'unknown'
      ? settlement.why
      : 'its slug is taken now (the list does not show the link holding it yet, so the first attempt may have made it)';
  throw unknownCreateOutcome(conflict, lost.wanted, why);
}

function describeSent(body: CreateLinkInput): string {
  const parts = [`Target URL ${body.targetUrl}`];
  if (body.slug !== undefined) parts.push(`Slug "${body.slug}"`);
  if (body.title !== undefined) parts.push(`Title "${body.title}"`);
  if (body.domain !== undefined) parts.push(`Domain ${body.domain}`);
  return parts.join(', ');
}

function firstSentence(lost: ShortLinkError): string {
  return lost.message.replace(/ The outcome is unknown:.*$/, '');
}

/** The create failed and the account shows, twice, that it stored nothing: safe to run again. */
function nothingStored(lost: ShortLinkError): ShortLinkError {
  lost.message = `${firstSentence(lost)} Nothing was created (checked in the account), so it is safe to try again.`;
  return lost;
}

export function unknownCreateOutcome(lost: ShortLinkError, body: CreateLinkInput, why: string): UnknownOutcomeError | DeadlineError {
  const message =
    `${firstSentence(lost)} The outcome is unknown: a link was asked for with ${describeSent(body)}. ` +
    `The link may have been created, and ${why}. Look it up by its target URL (Find) before running this item again.`;
  if (lost instanceof DeadlineError) return new DeadlineError({ title: lost.title, message, limitMs: lost.limitMs, outcomeUnknown: true });
  const init: { title: string; message: string; status?: number } = { title: 'Outcome unknown', message };
  if (lost.status !== undefined) init.status = lost.status;
  return new UnknownOutcomeError(init);
}
