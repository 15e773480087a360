/**
 * POST /links exactly once as far as the account can tell (docs/guarantees.md, "The create rule"). When the
 * outcome of a create is unknown, the account is asked (lost-create.ts) before anything is answered or sent
 * again: the request's own link is the answer; "nothing stored" allows one more send; anything else ends in
 * UnknownOutcomeError, which says what was sent, that the link may exist and how to check.
 */
import { randomSlug } from './create-marker';
import { OWN_CREATE_SETTLE_MS, settleLostCreate, type LostCreate, type Settlement } from './lost-create';
import type { ServiceClock } from './service-clock';
import type { PageReader } from './window-walk';
import {
  CancelledError,
  ConflictError,
  DeadlineError,
  ForbiddenError,
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
  clock: ServiceClock;
  /** The wait between a lost create's two looks (at least the list's learned lag). */
  settleMs(): number;
  claimed: ReadonlySet<string>;
  /** Records a link as handed out by this client (never handed out again); `sent`: it came from a 201 to this body. */
  claim(link: Link | LinkCreated, sent?: CreateLinkInput): void;
  /** Random source of the marker slug. */
  random(): number;
  /** The service refused a chosen slug for the plan: creates go without a marker from now on (process-wide). */
  markerRefused(): boolean;
  refuseMarkers(): void;
}

export interface CreateOnceOptions {
  maxRetries: number;
  /** Time the lookup needs after a request; the POST may not use it. */
  reserveMs: number;
  /** Send a slug this client chose (a marker only this request can have) when the input has none. */
  markCreates: boolean;
  /**
   * Find or Create: a link found after a lost answer that is the link asked for (the user's own slug, this
   * target) is the answer even when this request cannot be proved to have made it.
   */
  adoptSame?: boolean;
}

/** What a create ended with: the link, and whether this request provably made it. */
export interface CreateOutcome {
  link: LinkCreated | Link;
  /** False only for Find or Create's `adoptSame`: the link asked for exists, made by this request or another. */
  made: boolean;
}

/** Looks (two reads each) for a link known to be stored before the list is taken not to show it in time. */
const MAX_LOOKS_FOR_A_STORED_LINK = 5;

/** Statuses and failures after which a create may or may not have been stored. */
export function createOutcomeUnknown(error: unknown): boolean {
  if (error instanceof ServerError) return true;
  if (error instanceof NetworkError) return error.outcomeUnknown;
  // A 2xx whose body could not be read (too large, cut off, not JSON): stored, but unreadable. A 3xx is
  // also "unexpected", but a redirect processed nothing.
  return error instanceof UnexpectedResponseError && (error.status === undefined || (error.status >= 200 && error.status < 300));
}

/**
 * Whether the failure shows that the service was done with the request (it answered with an error of its
 * own), so that a request still on its way cannot store a link later: a 500, 502 or 503. A timeout, a reset
 * and a gateway's 504 leave the request possibly still running.
 */
function serviceWasDone(error: ShortLinkError): boolean {
  return error instanceof ServerError && (error.status === 500 || error.status === 502 || error.status === 503);
}

export async function createOnce(io: CreateOnceIo, input: CreateLinkInput, options: CreateOnceOptions): Promise<CreateOutcome> {
  let marked = options.markCreates && input.slug === undefined && !io.markerRefused();
  let body: CreateLinkInput = marked ? { ...input, slug: randomSlug(io.random) } : input;
  let firstSentAt: number | undefined;
  let refusedMarked = false;
  /** When the last attempt that may have stored the link failed: the end of a resend's 409 window. */
  let lastLostAt = 0;
  const lostCreate = (sentAt: number, failedAt: number): LostCreate => ({
    wanted: body,
    marked,
    sentAt,
    failedAt,
    claimed: io.claimed,
    ...(options.adoptSame ? { adoptSame: true } : {}),
  });
  for (let attempt = 0; ; attempt++) {
    const sentAt = io.now();
    firstSentAt ??= sentAt;
    let lost: ShortLinkError;
    let stored = false;
    try {
      const answer = await io.post(body, options.reserveMs);
      try {
        const created = io.readCreated(answer);
        io.clock.observeListed(Date.parse(String(created.createdAt)), io.now());
        io.claim(created, body);
        // Refused with a marker, taken without: this process sends creates without one from now on.
        if (refusedMarked) io.refuseMarkers();
        return { link: created, made: true };
      } catch (unreadable) {
        // A 2xx means the link was stored; only its description was lost.
        lost = unreadable as ShortLinkError;
        stored = true;
      }
    } catch (error) {
      // Stopped while the request was on its way: it may have been stored, and nothing more is sent to learn it.
      if (error instanceof CancelledError && error.outcomeUnknown) throw cancelledCreate(body);
      if (attempt === 0 && marked && error instanceof ConflictError) {
        // Another request holds this marker (a clash of random slugs): nothing of this request's was stored.
        body = { ...input, slug: randomSlug(io.random) };
        continue;
      }
      if (attempt === 0 && marked && error instanceof ForbiddenError && error.reason === 'plan') {
        // Perhaps the plan takes no chosen slugs: nothing was stored; tried once more without the marker.
        refusedMarked = true;
        marked = false;
        body = input;
        continue;
      }
      if (attempt > 0 && error instanceof ConflictError && body.slug !== undefined) {
        // The slug is taken on a resend: an earlier attempt of this very create may hold it (a lagging list hid it).
        return settleConflict(io, lostCreate(firstSentAt, lastLostAt), error, marked);
      }
      if (!createOutcomeUnknown(error)) throw error;
      lost = error as ShortLinkError;
    }

    lastLostAt = io.now();
    // A 2xx with the marker proves the link exists: looked for until a lagging list shows it.
    const settlement = await settle(io, lostCreate(sentAt, lastLostAt), lost, stored && marked);
    if (settlement.kind === 'own' || settlement.kind === 'same') {
      if (settlement.kind === 'own') io.claim(settlement.link);
      return { link: settlement.link, made: settlement.kind === 'own' };
    }
    if (settlement.kind === 'unknown') throw unknownCreateOutcome(lost, body, settlement.why);
    if (stored) throw unknownCreateOutcome(lost, body, 'the service said it was created, but it is not in the list of links yet');
    // Nothing stored, read twice a settle delay apart. Sending again is safe when the slug makes a second
    // link impossible (the marker or the user's slug: a first attempt that lands late makes the resend a
    // 409), or when the service showed it was done with the request; otherwise the first attempt may still
    // land, and a second could be a second link.
    if (body.slug === undefined && !serviceWasDone(lost)) {
      throw unknownCreateOutcome(lost, body, 'the list shows no such link yet, but the request got no answer and may still be carried out, so it was not sent again (a second request could make a second link)');
    }
    if (attempt >= options.maxRetries || io.timeLeftMs() <= options.reserveMs) throw nothingStored(lost);
  }
}

/**
 * The lookup reads harmlessly: on a network as bad as the one that lost the answer, it gets rounds of its
 * own. `exists`: the link is known to be stored (a 2xx, or a resend's 409 on this request's own marker), so
 * "nothing" only means the list has not shown it yet: looked for again, further apart, while time allows.
 */
async function settle(io: CreateOnceIo, lost: LostCreate, failure: ShortLinkError, exists = false): Promise<Settlement> {
  for (let round = 1, looks = 1; ; round++) {
    try {
      const settlement = await settleLostCreate({ readPage: io.readPage, pause: io.pause, clock: io.clock, settleMs: io.settleMs() }, lost);
      if (!exists || settlement.kind !== 'nothing stored' || looks >= MAX_LOOKS_FOR_A_STORED_LINK || io.timeLeftMs() < 4_000) return settlement;
      looks++;
      round = 0;
      await io.pause(OWN_CREATE_SETTLE_MS * looks);
    } catch (lookupError) {
      // Stopped while looking: nothing more is sent, and the create's outcome stays unknown.
      if (lookupError instanceof CancelledError) throw cancelledCreate(lost.wanted);
      const transient = lookupError instanceof ServerError || lookupError instanceof NetworkError || lookupError instanceof UnexpectedResponseError;
      const why = `looking for it failed (${(lookupError as Error).message.replace(/\.$/, '')})`;
      if (!transient || round >= 3 || io.timeLeftMs() < 2_000) throw unknownCreateOutcome(failure, lost.wanted, why);
      await io.pause(OWN_CREATE_SETTLE_MS);
    }
  }
}

/** A resend's 409: the slug's holder is returned when it is provably this create's; else the outcome is unknown. */
async function settleConflict(io: CreateOnceIo, lost: LostCreate, conflict: ConflictError, marked: boolean): Promise<CreateOutcome> {
  // The marker is this request's alone: its slug taken means this request's first attempt stored the link.
  const settlement = await settle(io, lost, conflict, marked);
  if (settlement.kind === 'own' || settlement.kind === 'same') {
    if (settlement.kind === 'own') io.claim(settlement.link);
    return { link: settlement.link, made: settlement.kind === 'own' };
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

/** The run was stopped while a create was on its way or being looked for: it may have been stored. */
export function cancelledCreate(body: CreateLinkInput): CancelledError {
  return new CancelledError({
    title: 'Cancelled',
    message:
      `The call was cancelled (the run was stopped) while a link was being created with ${describeSent(body)}, and nothing more was sent after that. ` +
      'The outcome is unknown: the link may have been created. Look it up by its target URL (Find) before running this item again.',
    outcomeUnknown: true,
  });
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
