/**
 * One poll's working set: the page reader with the poll's limits, the mark as it moves, the links handed
 * out so far and the notices for the host's log. The walks in newest-first.ts, oldest-first.ts and
 * first-run.ts all read and emit through it, so the limits and the "emitted means handled" rule live here.
 */
import { UnexpectedResponseError } from '../../errors';
import { PagingCircleError, WalkGuard } from '../../reading/walk-guard';
import { PollRequests } from '../poll-requests';
import type { Link, LinkPage } from '../../types';
import { orderEvidence, timeOf } from './list-order';
import type { NewLinksMark } from './state';

export type LinkPageFetcher = (request: { limit: number; cursor?: string }) => Promise<LinkPage>;

export interface PollLimits {
  /** Links per page, 1 to 100. */
  pageSize: number;
  /** List requests per poll at most. */
  maxPages: number;
  /** Links handed out per poll at most; the rest wait in the state, oldest first. */
  maxLinks: number;
  /**
   * Asked before every request but the poll's first: true ends the poll there (its time is up, or the
   * rate limit's budget is low), keeping what it learned for the next poll.
   */
  shouldStop?: () => boolean;
  /**
   * True for an error that only says the poll's time or rate budget ran out (not that anything is wrong):
   * after at least one page the poll then ends normally instead of failing.
   */
  isOutOfBudget?: (error: unknown) => boolean;
}

/** Ids of links without a readable createdAt kept at most (the oldest are forgotten first). */
const UNDATED_KEPT = 1000;

export type PageRead = { kind: 'page'; page: LinkPage; cursor: string | undefined } | { kind: 'stop' } | { kind: 'refused'; reason: string };

/** A page whose times contradict the page before it, while each page alone is in order: the cursor led elsewhere. */
export function discontinuityError(pages: number): UnexpectedResponseError {
  return cycleError(`a page after a cursor did not go on where the page before it ended, after ${pages} page(s)`);
}

export function cycleError(detail: string): UnexpectedResponseError {
  return new PagingCircleError(`${detail}; nothing was handed out from this poll`, 'the trigger');
}

export function noOrderError(): UnexpectedResponseError {
  return new UnexpectedResponseError({
    title: 'The list of links has no order',
    message:
      "The service's list of links is in no order: on one page createdAt both rises and falls. The trigger cannot tell new links from old ones in such a list, so it stopped; nothing was handed out from this poll.",
  });
}

/** A page whose times go the wrong way from the page before, in a list whose order is known: the cursor led back. */
export function wentBackError(pages: number, newer: boolean): UnexpectedResponseError {
  return cycleError(`a page after a cursor held links ${newer ? 'newer' : 'older'} than the page before it, after ${pages} page(s)`);
}

type Evidence = ReturnType<typeof orderEvidence>;

/**
 * Walks one way through the list: the shared walk guard (a continuation used twice, pages that only repeat:
 * reading/walk-guard.ts) plus what the poll learns from the order of the links' times.
 */
export class Trail extends WalkGuard {
  constructor(known: Iterable<string> = []) {
    super('the trigger', known);
  }

  /**
   * What a page read with `cursor` says about the order: `inside` the page alone, `across` with the last
   * readable time of the page before (`before`). Throws for a page in no order, or one that does not go
   * on where the page before it ended.
   */
  orderOf(cursor: string | undefined, links: readonly Link[], before: number | undefined): { inside: Evidence; across: Evidence } {
    this.at(cursor);
    const inside = orderEvidence(links);
    if (inside === 'both') throw noOrderError();
    const across = orderEvidence(links, before);
    if (across === 'both') throw discontinuityError(this.pages);
    return { inside, across };
  }
}

export class PollRun {
  private readonly sender: PollRequests;
  readonly emitted: Link[] = [];
  readonly notices: string[] = [];
  readonly undated: Set<string>;
  mark: NewLinksMark | null;

  constructor(
    private readonly fetchPage: LinkPageFetcher,
    readonly limits: PollLimits,
    mark: NewLinksMark | null,
    undated: readonly string[] | undefined,
  ) {
    this.mark = mark;
    const requestLimits: ConstructorParameters<typeof PollRequests>[0] = { maxRequests: limits.maxPages };
    if (limits.shouldStop) requestLimits.shouldStop = limits.shouldStop;
    if (limits.isOutOfBudget) requestLimits.isOutOfBudget = limits.isOutOfBudget;
    this.sender = new PollRequests(requestLimits);
    this.undated = new Set(undated ?? []);
  }

  get linksLeft(): number {
    return this.limits.maxLinks - this.emitted.length;
  }

  /** Requests sent so far in this poll. */
  get requests(): number {
    return this.sender.count;
  }

  /** Whether another request may be sent in this poll. */
  canRead(): boolean {
    return this.sender.canSend();
  }

  /**
   * One page, or 'stop' when the poll's limits end it here, or 'refused' when a cursor from the stored
   * state is refused by the service (it may expire cursors): the caller then starts that walk over.
   */
  async read(cursor: string | undefined, fromState: boolean): Promise<PageRead> {
    const request: { limit: number; cursor?: string } = { limit: this.limits.pageSize };
    if (cursor !== undefined) request.cursor = cursor;
    const answer = await this.sender.send(() => this.fetchPage(request), fromState && cursor !== undefined);
    return answer.kind === 'answer' ? { kind: 'page', page: answer.value, cursor } : answer;
  }

  /** Handled: at or below the mark, or an undated link already handed out (or there before the start). */
  isHandled(link: Link): boolean {
    const t = timeOf(link);
    if (t === undefined) return this.undated.has(String(link.id));
    if (this.mark === null) return false;
    const m = Date.parse(this.mark.createdAt);
    return t < m || (t === m && this.mark.ids.includes(String(link.id)));
  }

  /** True for a handled link with a readable createdAt: in the list's order everything beyond it is handled. */
  isHandledDated(link: Link): boolean {
    return timeOf(link) !== undefined && this.isHandled(link);
  }

  /** Marks links as there before the start without handing them out (first run). */
  remember(links: readonly Link[]): void {
    for (const link of links) if (timeOf(link) === undefined) this.rememberUndated(String(link.id));
  }

  /**
   * Hands links out, oldest first, and moves the mark up past them: from now on they count as handled,
   * so a poll that stops (or a cursor that fails) later never hands them out again.
   */
  emit(oldestFirst: readonly Link[]): void {
    for (const link of oldestFirst) {
      this.emitted.push(link);
      const t = timeOf(link);
      if (t === undefined) {
        this.rememberUndated(String(link.id));
        continue;
      }
      this.raiseMark(link, t);
    }
  }

  /** The mark moves to the link's instant (keeping the ids handled at it) unless it is already higher. */
  raiseMark(link: Link, t: number): void {
    const id = String(link.id);
    const m = this.mark === null ? undefined : Date.parse(this.mark.createdAt);
    if (m === undefined || t > m) this.mark = { createdAt: link.createdAt, ids: [id] };
    else if (t === m && !this.mark!.ids.includes(id)) this.mark = { createdAt: this.mark!.createdAt, ids: [...this.mark!.ids, id] };
  }

  private rememberUndated(id: string): void {
    this.undated.delete(id);
    this.undated.add(id);
    if (this.undated.size > UNDATED_KEPT) this.undated.delete(this.undated.values().next().value!);
  }

  notice(text: string): void {
    if (!this.notices.includes(text)) this.notices.push(text);
  }
}
