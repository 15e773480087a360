/**
 * Fetches one page of links and learns, on the way, what the service chose where the spec is silent
 * (docs/api-contract.md, "Where the service may differ"):
 * - the continuation in whatever form the page gives it (page-reader.ts), handed out as an opaque token
 *   (continuation.ts); a next-page URL only when it lies on the service, so the key never goes elsewhere;
 * - no continuation after a full page is "unknown", not "end": the page is handed out with a continuation
 *   that fails loudly when followed, naming what came back (a caller that needs no more pages is served);
 * - a refused page size (422/400 naming it): the maximum from the refusal's detail, else from the served
 *   OpenAPI document, else by halving; kept for the client's life;
 * - "the next page" answered with the first page again (the service ignores our cursor parameter): the
 *   parameter's name from the served OpenAPI document, else a loud failure instead of links read twice.
 * The served document is read at most once per client, and only when a list does not page as expected.
 */
import { isOnService } from '../http/base-url';
import type { CallBudget } from '../http/call-budget';
import { continuationText, decodeContinuation, encodeContinuation, sameContinuation, type Continuation, type ContinuationToken } from './continuation';
import { continuationFingerprint, PagingCircleError, TOKEN_TRAIL } from './walk-guard';
import { BadRequestError, CancelledError, DeadlineError, InputError, RateLimitError, ShortLinkError, UnexpectedResponseError, ValidationError } from '../errors';
import { capEcho, statusText, unexpectedBody } from '../http/error-from-response';
import { checkPageSize } from '../forms/input-checks';
import { isRecord } from '../basics/json';
import { readListAnswer, type ListAnswer, type RawContinuation } from './page-reader';
import type { ApiCall, RequestExecutor } from '../http/request-executor';
import { listParametersFrom, type ListParameters } from './served-openapi';
import type { ServiceProfile } from './service-profile';
import type { LinkPage, ListLinksOptions } from '../types';

/** Requests one page may take: a refused size learned (at most 7 halvings of 100), a renamed parameter. */
const MAX_ATTEMPTS = 12;
const PAGE_SIZE_WORDS = /\b(page ?size|per ?page|page length|too many (items|links|results))\b/i;

function words(name: string): RegExp {
  return new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`, 'i');
}

/**
 * The largest number a refusal names as the maximum ("at most 50", "<= 50", "between 1 and 50",
 * "less than 51"), below what was sent; undefined when it names none.
 */
export function maximumNamedIn(text: string, sent: number): number | undefined {
  const found: number[] = [];
  const patterns: Array<[RegExp, number]> = [
    [/(?:at most|<=|≤|=<|max(?:imum)?(?:\s+(?:page ?size|limit|value|allowed|is|of))*|not (?:be )?(?:greater|more|larger|higher) than|must not exceed|cannot exceed|can't exceed|exceeds?(?: the)?(?: maximum| limit)?(?: of)?|up to|no more than|or (?:less|fewer) than or equal to|less than or equal to)\s*:?\s*(\d+)/gi, 0],
    [/(?:less than|fewer than|below|under|<)\s*:?\s*(\d+)/gi, -1],
    [/(\d+)\s*(?:or (?:less|fewer)|at most|(?:is|as) (?:the )?max(?:imum)?)/gi, 0],
    [/(?:between|from)\s+\d+\s+(?:and|to)\s+(\d+)/gi, 0],
    [/\b\d+\s*(?:-|–|\.\.)\s*(\d+)\b/g, 0],
  ];
  for (const [pattern, shift] of patterns) {
    for (const match of text.matchAll(pattern)) {
      const value = Number(match[1]) + shift;
      if (Number.isInteger(value) && value >= 1 && value < sent) found.push(value);
    }
  }
  return found.length > 0 ? Math.max(...found) : undefined;
}

function pagingNotUnderstood(message: string): UnexpectedResponseError {
  return new UnexpectedResponseError({ title: 'Paging not understood', message });
}

export class LinkPager {
  private documentRead: Promise<ListParameters | undefined> | undefined;

  constructor(
    private readonly executor: RequestExecutor,
    private readonly profile: ServiceProfile,
  ) {}

  async page(options: ListLinksOptions, budget: CallBudget): Promise<LinkPage> {
    const limit = checkPageSize(options.limit, 'limit');
    const cursor = options.cursor;
    if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) {
      throw new InputError('cursor', 'cursor must be the non-empty nextCursor of a previous page.');
    }
    const decoded = cursor === undefined ? undefined : decodeContinuation(cursor);
    if (decoded !== undefined && 'unknown' in decoded) throw pagingNotUnderstood(decoded.unknown);
    const token = decoded;
    if (token?.next.kind === 'url' && !isOnService(this.executor.apiUrl, token.next.url)) throw this.nextPageElsewhere(token.next.url);
    let size = limit === undefined ? undefined : Math.min(limit, this.profile.maxPageSize ?? limit);

    for (let attempt = 1; ; attempt++) {
      const call = this.callFor(token, size);
      const sentSizeName = this.profile.pageSizeParameter;
      let answer: ListAnswer;
      let url: string;
      try {
        const response = await this.executor.send(call, budget);
        url = this.executor.urlOf(call);
        const read = readListAnswer(response.body, response.headers, response.status);
        if (!read) throw unexpectedBody(response, 'a page of links', isRecord(response.body) ? 'the answer holds no list of links.' : undefined);
        answer = read;
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && size !== undefined && call.url === undefined && this.refusesPageSize(error, token)) {
          const retry = await this.learnMaxPageSize(error as ShortLinkError, size, budget);
          if (retry !== undefined && (retry < size || this.profile.pageSizeParameter !== sentSizeName)) {
            size = retry;
            continue;
          }
        }
        throw error;
      }

      // "The next page" holds the list's first link: the service did not read our cursor parameter and
      // answered with the first page again (newer links may stand above it by now).
      if (token?.top !== undefined && answer.links.some((link) => String(link.id) === token.top)) {
        if (attempt < MAX_ATTEMPTS && token.next.kind !== 'url' && (await this.learnCursorName(token.next, budget))) continue;
        throw this.firstPageAgain(token.next, token.top);
      }

      const { sign } = answer;
      if (sign.state === 'next') {
        const next = this.resolve(sign.next, url);
        if (token && sameContinuation(next, token.next)) throw this.sameContinuationAgain(answer);
        const trail = token ? [...(token.trail ?? []), continuationFingerprint(continuationText(token.next))].slice(-TOKEN_TRAIL) : [];
        if (trail.includes(continuationFingerprint(continuationText(next)))) {
          throw new PagingCircleError(`the next page's continuation is one this walk followed before, ${trail.length - trail.lastIndexOf(continuationFingerprint(continuationText(next)))} page(s) back`);
        }
        this.profile.paging = { form: sign.form, where: sign.where };
        const top = token ? token.top : answer.links[0] === undefined ? undefined : String(answer.links[0].id);
        const issued: ContinuationToken = top === undefined ? { next } : { next, top };
        if (trail.length > 0) issued.trail = trail;
        return { links: answer.links, nextCursor: encodeContinuation(issued) };
      }
      if (sign.state === 'end') {
        this.profile.paging ??= { form: sign.form, where: sign.where };
        return { links: answer.links, nextCursor: null };
      }

      // No sign either way. An empty page ends the list; a short page does too, once the page size is sure.
      if (answer.links.length === 0) return { links: answer.links, nextCursor: null };
      let expected = this.expectedPageSize(call, size);
      if ((expected === undefined || answer.links.length < expected) && this.profile.openApiDocument === 'not read') {
        await this.listParameters(budget);
        // We sent the page size under a name the service does not read: ask again under its name.
        if (attempt < MAX_ATTEMPTS && size !== undefined && call.url === undefined && this.profile.pageSizeParameter !== sentSizeName) continue;
        expected = this.expectedPageSize(call, size);
      }
      // More may follow, but not where: this page is good; following it fails loudly (see UnknownContinuation).
      if (expected !== undefined && answer.links.length >= expected) return { links: answer.links, nextCursor: encodeContinuation({ unknown: this.unknownContinuation(answer, expected) }) };
      return { links: answer.links, nextCursor: null };
    }
  }

  /** The request for the first page or for the page a continuation names. */
  private callFor(token: ContinuationToken | undefined, size: number | undefined): ApiCall {
    const { pageSizeParameter, cursorParameter, afterParameter } = this.profile;
    const next = token?.next;
    if (next?.kind === 'url') return { method: 'GET', path: '/links', url: next.url };
    const query: Record<string, string | number | undefined> = { [pageSizeParameter]: size };
    if (next?.kind === 'cursor') query[cursorParameter] = next.value;
    if (next?.kind === 'after') query[afterParameter] = next.id;
    return { method: 'GET', path: '/links', query };
  }

  /** How many links a full page holds: what was asked for (in the URL the service gave, or sent by us). */
  private expectedPageSize(call: ApiCall, size: number | undefined): number | undefined {
    if (call.url !== undefined) {
      const inUrl = Number(new URL(call.url).searchParams.get(this.profile.pageSizeParameter) ?? Number.NaN);
      if (Number.isInteger(inUrl) && inUrl >= 1) return inUrl;
    }
    const asked = size ?? this.profile.defaultPageSize;
    return asked === undefined ? undefined : Math.min(asked, this.profile.maxPageSize ?? asked);
  }

  /**
   * A next-page URL resolved against the page's own address. One that is not on the service is handed out
   * all the same (this page's links are good) and refused when it is followed (nextPageElsewhere).
   */
  private resolve(raw: RawContinuation, pageUrl: string): Continuation {
    if (raw.kind !== 'url') return raw;
    let absolute: string;
    try {
      absolute = new URL(raw.url, pageUrl).href;
    } catch {
      throw new UnexpectedResponseError({
        title: 'Unexpected response',
        message: `Unexpected response: the service's next-page link "${capEcho(raw.url)}" is not a URL, so the list could not be continued.`,
      });
    }
    return { kind: 'url', url: absolute };
  }

  /** A 422 (or 400) to a list request that is about the page size we sent. */
  private refusesPageSize(error: unknown, token: ContinuationToken | undefined): boolean {
    if (!(error instanceof ValidationError || error instanceof BadRequestError)) return false;
    if (error.status !== 422 && error.status !== 400) return false;
    const sizeName = this.profile.pageSizeParameter;
    const fields = error instanceof ValidationError ? error.fieldErrors.map((e) => e.field) : [];
    if (fields.some((field) => field === sizeName || field.endsWith(`.${sizeName}`))) return true;
    if (fields.some((field) => field !== '')) return false;
    const text = `${error.title} ${error.detail ?? ''} ${error.message}`;
    if (words(sizeName).test(text) || PAGE_SIZE_WORDS.test(text)) return true;
    // Says nothing about any parameter: the page size is the one thing a first-page request sends.
    const sentCursorName = token?.next.kind === 'after' ? this.profile.afterParameter : this.profile.cursorParameter;
    return token === undefined && !words(sentCursorName).test(text);
  }

  /**
   * The page size to ask for after a refusal: the maximum its detail names, else the served document's,
   * else half of what was sent. The same size again when the document says the service reads the page size
   * under another name. undefined: nothing smaller to try.
   */
  private async learnMaxPageSize(error: ShortLinkError, sent: number, budget: CallBudget): Promise<number | undefined> {
    const text = [error.detail, error.message, ...(error instanceof ValidationError ? error.fieldErrors.map((e) => e.message) : [])].filter(Boolean).join(' ');
    const named = maximumNamedIn(text, sent);
    if (named !== undefined) return this.rememberMaxPageSize(named, 'refusal detail');
    const sentName = this.profile.pageSizeParameter;
    // Reading the document takes its maximum (and the parameter's name) into the profile.
    const document = await this.listParameters(budget);
    if (document?.maxPageSize !== undefined && document.maxPageSize < sent) return document.maxPageSize;
    if (this.profile.pageSizeParameter !== sentName) return sent;
    return sent > 1 ? this.rememberMaxPageSize(Math.floor(sent / 2), 'halving') : undefined;
  }

  private rememberMaxPageSize(size: number, from: ServiceProfile['maxPageSizeFrom']): number {
    this.profile.maxPageSize = size;
    this.profile.maxPageSizeFrom = from;
    return size;
  }

  /** After the first page came back again: the cursor's name from the served document, if it names another. */
  private async learnCursorName(next: Continuation, budget: CallBudget): Promise<boolean> {
    if (this.profile.openApiDocument !== 'not read') return false;
    const before = next.kind === 'after' ? this.profile.afterParameter : this.profile.cursorParameter;
    await this.listParameters(budget);
    const after = next.kind === 'after' ? this.profile.afterParameter : this.profile.cursorParameter;
    return after !== before;
  }

  /**
   * The list's parameters from /api/v1/openapi.json, read once per client (concurrent calls share the
   * read). Names and the page-size limits are taken into the profile; nothing else of the document is used.
   */
  listParameters(budget: CallBudget): Promise<ListParameters | undefined> {
    this.documentRead ??= this.readDocument(budget);
    return this.documentRead;
  }

  private async readDocument(budget: CallBudget): Promise<ListParameters | undefined> {
    let body: unknown;
    try {
      const response = await this.executor.send({ method: 'GET', path: '/openapi.json' }, budget);
      body = response.body;
    } catch (error) {
      // Out of time or cancelled: the next call may read it. Any other failure: it is not there for us.
      if (error instanceof CancelledError || error instanceof DeadlineError || error instanceof RateLimitError) {
        this.documentRead = undefined;
        throw error;
      }
      this.profile.openApiDocument = `not served (${error instanceof ShortLinkError && error.status !== undefined ? statusText(error.status) : 'no answer'})`;
      return undefined;
    }
    const parameters = listParametersFrom(body);
    if (!parameters) {
      this.profile.openApiDocument = isRecord(body) && isRecord(body.paths) ? 'served, names no link list' : 'not served (not an OpenAPI document)';
      return undefined;
    }
    this.profile.openApiDocument = 'served';
    if (parameters.cursor !== undefined) this.profile.cursorParameter = parameters.cursor;
    if (parameters.after !== undefined) this.profile.afterParameter = parameters.after;
    if (parameters.pageSize !== undefined) this.profile.pageSizeParameter = parameters.pageSize;
    if (parameters.defaultPageSize !== undefined) this.profile.defaultPageSize = parameters.defaultPageSize;
    if (parameters.maxPageSize !== undefined && (this.profile.maxPageSize === undefined || parameters.maxPageSize < this.profile.maxPageSize)) {
      this.profile.maxPageSize = parameters.maxPageSize;
      this.profile.maxPageSizeFrom = 'OpenAPI document';
    }
    return parameters;
  }

  /** Following a next page that is not on the service: refused, so that the key never goes there. */
  private nextPageElsewhere(url: string): UnexpectedResponseError {
    return new UnexpectedResponseError({
      title: 'Next page elsewhere',
      message: `The next page's address, ${capEcho(url)}, is not on the service (${this.executor.apiUrl}). The API key is sent only to the service, so the list was not continued there and the links beyond this point were not read. (A cursor saved while the credential named another Base URL gives this too: start the list from its first page.)`,
    });
  }

  private documentNote(): string {
    const state = this.profile.openApiDocument;
    if (state === 'served') return 'Its OpenAPI document (/api/v1/openapi.json) names no other parameter for it.';
    if (state === 'not read') return '';
    return `Its OpenAPI document (/api/v1/openapi.json) could not tell the right name: ${state}.`;
  }

  private firstPageAgain(next: Continuation, topId: string): UnexpectedResponseError {
    const how =
      next.kind === 'url'
        ? 'its own next-page link'
        : `the ${next.kind === 'after' ? '"after"' : 'cursor'} parameter "${next.kind === 'after' ? this.profile.afterParameter : this.profile.cursorParameter}"`;
    return new UnexpectedResponseError({
      title: 'Paging not understood',
      message: `The service answered the request for the next page with the first page again (link ${capEcho(topId)}, the first of the list, came back): it does not read ${how}. ${this.documentNote()} The list was not read further, so that no link is counted twice.`.replace(/ {2,}/g, ' '),
    });
  }

  private sameContinuationAgain(answer: ListAnswer): UnexpectedResponseError {
    return new PagingCircleError(`it answered the request for the next page with the same continuation again, in ${answer.shape}`);
  }

  private unknownContinuation(answer: ListAnswer, expected: number): string {
    const note = this.profile.openApiDocument === 'not read' ? '' : ` (/api/v1/openapi.json: ${this.profile.openApiDocument})`;
    return `The service sent a full page (${answer.links.length} links, page size ${expected}) without saying whether more follow: no cursor field, next-page URL or Link header was found in ${answer.shape}${note}. The list may go on, so it was not taken as complete.`;
  }

}
