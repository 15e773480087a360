/**
 * POST /links, exactly once as far as the account can tell (docs/guarantees.md): when the outcome is
 * unknown, the account is asked for the link this request stored before anything is sent again
 * (create-reconciler.ts); when it cannot tell, the call says "unknown" and how to check.
 */
import type { CallBudget } from '../http/call-budget';
import { DeadlineError, NetworkError, ServerError, ShortLinkError, UnexpectedResponseError, UnknownOutcomeError } from '../errors';
import { checkCreateInput } from '../forms/input-checks';
import { readObjectBody } from '../reading/record-readers';
import type { ServiceApi } from '../endpoints/service-api';
import type { Lookups } from '../link-index/lookups';
import type { CreateLinkInput, Link, LinkCreated } from '../types';
import { createWindowStart, findOwnCreate } from './create-reconciler';
import { completeCreatedLink } from './new-link';

/** Pages read when looking for a create's own link (its window is seconds wide: one page, nearly always). */
const OWN_CREATE_MAX_PAGES = 5;
/** After a lost answer the service may still be working on the request: look once more after this. */
const OWN_CREATE_SETTLE_MS = 1_500;
/** Rounds of the lookup (each retrying its requests) before the outcome is called unknown. */
const OWN_CREATE_LOOKUP_ROUNDS = 3;
/** Ids remembered as created by this client (so that a lookup never hands out one link twice). */
const CLAIMED_IDS_KEPT = 10_000;

/** Statuses and failures after which a create may or may not have been stored. */
function createOutcomeUnknown(error: unknown): boolean {
  if (error instanceof ServerError) return true;
  if (error instanceof NetworkError) return error.outcomeUnknown;
  // A 2xx whose body could not be read (too large, cut off, not JSON): stored, but unreadable. A 3xx is
  // also "unexpected", but a redirect processed nothing.
  return error instanceof UnexpectedResponseError && (error.status === undefined || (error.status >= 200 && error.status < 300));
}

/** After these the service may still be processing the request (nobody answered for it). */
function mayStillBeProcessing(error: unknown): boolean {
  if (error instanceof ServerError) return error.status === 504;
  return error instanceof NetworkError;
}

export class ExactlyOnceCreator {
  private readonly claimed = new Set<string>();

  constructor(
    private readonly api: ServiceApi,
    private readonly lookups: Lookups,
    private readonly settings: { maxRetries: number; now: () => number },
  ) {}

  async create(input: CreateLinkInput, budget: CallBudget): Promise<LinkCreated | Link> {
    const body = checkCreateInput(input);
    const { executor } = this.api;
    // Time kept for the lookup after a lost answer: a request may not use up the whole call.
    const reserveMs = Math.min(10_000, Math.floor(budget.limitMs * 0.3));
    for (let attempt = 0; ; attempt++) {
      const sentAt = executor.now();
      let lost: ShortLinkError;
      let stored = false;
      try {
        const response = await executor.send({ method: 'POST', path: '/links', body, reserveMs }, budget);
        try {
          const created = readObjectBody<LinkCreated>(response, 'the created link', ['id', 'shortUrl']);
          this.claim(String(created.id));
          this.lookups.remember(completeCreatedLink(created, body));
          return created;
        } catch (unreadable) {
          // A 2xx means the link was stored; only its description was lost.
          lost = unreadable as ShortLinkError;
          stored = true;
        }
      } catch (error) {
        if (!createOutcomeUnknown(error)) throw error;
        lost = error as ShortLinkError;
      }
      const found = await this.findOwn(body, sentAt, lost, stored, budget);
      if (found) return found;
      // The account shows that nothing was stored: sending it again cannot make a second link.
      if (attempt >= this.settings.maxRetries || budget.deadlineAt - this.settings.now() <= reserveMs) throw nothingStored(lost);
    }
  }

  /** After a lost answer: this request's link, or undefined when the account shows nothing was stored. */
  private async findOwn(body: CreateLinkInput, sentAt: number, lost: ShortLinkError, stored: boolean, budget: CallBudget): Promise<Link | undefined> {
    const { executor } = this.api;
    const query = { wanted: body, windowStart: () => createWindowStart(sentAt, executor.serviceClock), claimed: this.claimed, maxPages: OWN_CREATE_MAX_PAGES };
    let answer;
    try {
      answer = await this.lookUp(query, budget);
      if (!answer.found && answer.complete && !stored && mayStillBeProcessing(lost)) {
        // Nobody answered for the request: give the service a moment to finish it, then look again.
        await executor.pauseWithin(OWN_CREATE_SETTLE_MS, budget);
        answer = await this.lookUp(query, budget);
      }
    } catch (lookupError) {
      throw unknownCreateOutcome(lost, `looking for it failed (${(lookupError as Error).message.replace(/\.$/, '')})`);
    }
    if (answer.found) {
      this.claim(String(answer.found.id));
      this.lookups.remember(answer.found);
      return answer.found;
    }
    if (stored) throw unknownCreateOutcome(lost, 'the service said it was created, but it is not among the newest links');
    if (!answer.complete) throw unknownCreateOutcome(lost, 'too many links were created meanwhile to check them all');
    return undefined;
  }

  /**
   * The lookup is the one way to tell a stored link from a failure, and reading is harmless: on a network
   * as bad as the one that lost the answer, it gets a few rounds of its own (each with its retries).
   */
  private async lookUp(query: Parameters<typeof findOwnCreate>[1], budget: CallBudget): ReturnType<typeof findOwnCreate> {
    const readPage = (cursor: string | undefined) => this.api.readPage(cursor, budget);
    for (let round = 1; ; round++) {
      try {
        return await findOwnCreate(readPage, query);
      } catch (lookupError) {
        const transient = lookupError instanceof ServerError || lookupError instanceof NetworkError || lookupError instanceof UnexpectedResponseError;
        if (!transient || round >= OWN_CREATE_LOOKUP_ROUNDS || budget.deadlineAt - this.settings.now() < 2_000) throw lookupError;
        await this.api.executor.pauseWithin(OWN_CREATE_SETTLE_MS, budget);
      }
    }
  }

  private claim(id: string): void {
    this.claimed.add(id);
    if (this.claimed.size > CLAIMED_IDS_KEPT) this.claimed.delete(this.claimed.values().next().value!);
  }
}

/** The create failed and the account shows it stored nothing: safe to run again. */
function nothingStored(lost: ShortLinkError): ShortLinkError {
  lost.message = `${lost.message.replace(/ The outcome is unknown:.*$/, '')} Nothing was created (checked in the account), so it is safe to try again.`;
  return lost;
}

function unknownCreateOutcome(lost: ShortLinkError, why: string): UnknownOutcomeError | DeadlineError {
  const first = lost.message.replace(/ The outcome is unknown:.*$/, '');
  const message = `${first} The link may have been created, and ${why}. Look it up by its target URL (Find) before running this item again.`;
  if (lost instanceof DeadlineError) return new DeadlineError({ title: lost.title, message, limitMs: lost.limitMs, outcomeUnknown: true });
  const init: { title: string; message: string; status?: number } = { title: 'Outcome unknown', message };
  if (lost.status !== undefined) init.status = lost.status;
  return new UnknownOutcomeError(init);
}
