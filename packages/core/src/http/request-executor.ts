/**
 * Sends one API call through the transport with pacing, retries and error mapping. Every client
 * method goes through here, so the policy lives in one place (README "Retries" and "Pacing").
 */
import { apiUrlFor, isOnService } from './base-url';
import { UnexpectedResponseError } from '../errors';
import { cancelledError, cancelledWriteError, deadlineError, requestSignal, throwIfCancelled, untilAborted, type CallBudget } from './call-budget';
import { capEcho, errorFromResponse } from './error-from-response';
import { networkCodeOf, networkError } from './network-errors';
import { RateLimitPacer, waitTooLongError } from './pacer';
import { parseRateLimitHeaders, parseRetryAfterMs } from './rate-limit-headers';
import { normalizeHeaders, normalizeResponse } from './response-normalizer';
import { backoffDelayMs, isRetryable, mayHaveBeenProcessed } from './retry-policy';
import type { HttpMethod, Sleep, Transport, TransportRequest, TransportResponse } from './transport';
import { isRecord } from '../basics/json';

export interface ExecutorOptions {
  baseUrl: string;
  transport: Transport;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  maxWaitMs: number;
  maxRetries: number;
  /** Whole-request limit of each attempt. */
  requestTimeoutMs: number;
  /** Largest answer body a transport reads. */
  maxResponseBytes: number;
  /** A pacer shared with the other clients of the key in this process (client/process-shared.ts); default its own. */
  pacer?: RateLimitPacer;
}

export interface ApiCall {
  method: HttpMethod;
  /** Relative to /api/v1, ids already encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /**
   * The whole address instead of path + query: a next-page URL the service handed out. It must lie on the
   * service (isOnService); anything else is refused before it is sent, so the key never goes elsewhere.
   */
  url?: string;
  body?: unknown;
  /**
   * DELETE: when an earlier attempt may have been processed (reset, timeout, 5xx), a 404 on the retry
   * means that attempt deleted the link; the answer is then returned as success.
   */
  notFoundAfterUncertainAttemptIsSuccess?: boolean;
  /**
   * Time kept back from this request's timeout for what the caller must do after it (a create's lookup of
   * its own link when the answer is lost).
   */
  reserveMs?: number;
}


/**
 * Some host helpers throw for HTTP statuses (axios-like `error.response`). Such a throw still carries
 * an answer; read it instead of calling it a network failure.
 */
function answerInside(thrown: unknown): TransportResponse | undefined {
  if (!isRecord(thrown) || !isRecord(thrown.response)) return undefined;
  const response = thrown.response;
  const status = response.status ?? response.statusCode;
  if (typeof status !== 'number') return undefined;
  const headers = normalizeHeaders(response.headers as Record<string, unknown> | undefined);
  return normalizeResponse({ status, headers, body: response.body ?? response.data });
}

/** An answer larger than any answer of this API: not read, and not retried (it would be as large again). */
function answerTooLargeError(method: string, url: string, maxBytes: number): UnexpectedResponseError {
  return new UnexpectedResponseError({
    title: 'Unexpected response',
    message: `Unexpected response to ${method} ${new URL(url).host}: the answer is larger than ${Math.round(maxBytes / 1_000_000)} MB, more than any answer of this API, so it was not read. Check the base URL.`,
  });
}

export function buildUrl(apiUrl: string, path: string, query?: ApiCall['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${apiUrl}${path}${search ? `?${search}` : ''}`;
}

export class RequestExecutor {
  readonly apiUrl: string;
  readonly pacer: RateLimitPacer;

  constructor(private readonly options: ExecutorOptions) {
    this.apiUrl = apiUrlFor(options.baseUrl);
    this.pacer = options.pacer ?? new RateLimitPacer({ now: options.now, sleep: options.sleep, maxWaitMs: options.maxWaitMs, serviceOffsetMs: () => this.serviceOffsetMs() });
  }

  /** The service's clock as its last Date header told it, with our clock at that moment. */
  serviceClock: { serviceMs: number; localMs: number } | undefined = undefined;

  now(): number {
    return this.options.now();
  }

  /** The service's clock minus ours (ms) from the last Date header; undefined before one came. */
  serviceOffsetMs(): number | undefined {
    const clock = this.serviceClock;
    return clock === undefined ? undefined : clock.serviceMs - clock.localMs;
  }

  /** The address a call goes to. */
  urlOf(call: ApiCall): string {
    return call.url ?? buildUrl(this.apiUrl, call.path, call.query);
  }

  async send(call: ApiCall, budget: CallBudget): Promise<TransportResponse> {
    const { transport, maxRetries, now } = this.options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = this.urlOf(call);
    if (call.url !== undefined && !isOnService(this.apiUrl, call.url)) {
      throw new UnexpectedResponseError({
        title: 'Refused address',
        message: `Refused to send ${call.method} to ${capEcho(call.url)}: it is not on the service (${this.apiUrl}), and the API key goes only there.`,
      });
    }

    let failures = 0; // 5xx and network retries
    let rateLimited = 0; // 429 retries, counted apart: waiting for the window is not a failure
    let uncertain = false; // an earlier attempt may have been processed

    for (;;) {
      throwIfCancelled(budget);
      const permit = await this.pacer.acquire(budget, this.options);
      // Stop means stop: a cancel that came during the wait sends nothing, a write above all.
      if (budget.signal?.aborted) {
        permit.settle();
        throw cancelledError();
      }
      const leftMs = budget.deadlineAt - now() - (call.reserveMs ?? 0);
      if (leftMs <= 0) {
        permit.settle();
        throw deadlineError(budget, `before ${call.method} ${call.path} could be sent`);
      }
      const timeoutMs = Math.min(this.options.requestTimeoutMs, leftMs);
      const attempt = requestSignal(budget, timeoutMs);
      const request: TransportRequest = {
        method: call.method,
        url,
        path: call.path,
        headers: { ...headers },
        timeoutMs,
        signal: attempt.signal,
        maxResponseBytes: this.options.maxResponseBytes,
      };
      if (call.query) request.query = call.query;
      if (call.body !== undefined) request.body = call.body;

      let response: TransportResponse;
      try {
        response = normalizeResponse(await untilAborted(transport(request), attempt.signal));
      } catch (thrown) {
        if (budget.signal?.aborted) {
          permit.settle();
          // A write on its way when the run was stopped may have been carried out: said, never assumed.
          throw call.method === 'GET' ? cancelledError() : cancelledWriteError(call.method, call.path);
        }
        const inside = attempt.signal.aborted ? undefined : answerInside(thrown);
        if (!inside) {
          permit.settle();
          // The request had only what was left of the call, and used it up: the call's time is over. (A
          // create's lookup runs in the time kept back for it, so a create goes on as a lost answer.)
          if (attempt.timedOut() && timeoutMs < this.options.requestTimeoutMs && call.method !== 'POST') {
            throw deadlineError(budget, `no answer to ${call.method} ${call.path} in the time that was left`);
          }
          // Our own timeout fired: to the retry policy that is a timeout like any other.
          const failure = attempt.timedOut() ? { code: 'ETIMEDOUT', message: `no answer within ${timeoutMs} ms` } : thrown;
          const networkCode = networkCodeOf(failure);
          if (failures < maxRetries && isRetryable(call.method, { networkCode })) {
            if (mayHaveBeenProcessed({ networkCode })) uncertain = true;
            if (await this.backoff(failures++, budget)) continue;
          }
          if (networkCode === 'ERESPONSETOOLARGE') throw answerTooLargeError(call.method, url, this.options.maxResponseBytes);
          throw networkError(failure, call.method, url, attempt.timedOut() ? timeoutMs : undefined);
        }
        response = inside;
      }
      this.learnServerClock(response.headers);
      permit.settle(response.headers, this.serviceOffsetMs());
      const { status } = response;

      if (status >= 200 && status < 300) {
        // A JSON answer cut off on the way (broken JSON): reading again is harmless for GET and PATCH (the
        // same body again); a DELETE's answer is not needed, a create's loss is the client's to settle.
        const cutOff = /json/i.test(response.headers['content-type'] ?? '') && typeof response.body === 'string' && response.body.trim() !== '';
        if (cutOff && (call.method === 'GET' || call.method === 'PATCH') && failures < maxRetries && (await this.backoff(failures++, budget))) continue;
        return response;
      }
      if (status === 404 && uncertain && call.notFoundAfterUncertainAttemptIsSuccess) return response;

      if (status === 429) {
        // A Retry-After of 0 (or one in the past) during a storm must not turn into requests back to back.
        const askedMs = this.retryAfter(response);
        const retryAfterMs = Math.max(askedMs ?? 0, backoffDelayMs(rateLimited, this.options.random));
        const leftMs = budget.deadlineAt - now();
        if (retryAfterMs > this.options.maxWaitMs || retryAfterMs > leftMs) {
          const { type, detail } = errorFromResponse(response, { retryAfterMs });
          const problem: { type?: string; detail?: string } = {};
          if (type !== undefined) problem.type = type;
          if (detail !== undefined) problem.detail = detail;
          throw waitTooLongError(retryAfterMs, this.options.maxWaitMs, problem, leftMs);
        }
        // "The window is spent until its reset" (Remaining 0, a wait named) is what the pacer waits for
        // anyway when it knows it beforehand: with other clients on the key it learns it from a 429 instead.
        // Such waits are bounded by time (maxWaitMs, the call's limit), not counted; storms (a 429 while
        // requests remain, or without a wait) are.
        const windowSpent = maxRetries > 0 && (askedMs ?? 0) > 0 && parseRateLimitHeaders(response.headers, now(), this.serviceOffsetMs()).remaining === 0;
        if (windowSpent || rateLimited < maxRetries) {
          if (!windowSpent) rateLimited++;
          // The wait itself happens in the pacer, so that every concurrent call of this client waits too.
          this.pacer.blockFor(retryAfterMs);
          continue;
        }
        throw errorFromResponse(response, { retryAfterMs });
      }

      if (failures < maxRetries && isRetryable(call.method, { status })) {
        if (mayHaveBeenProcessed({ status })) uncertain = true;
        const askedMs = parseRetryAfterMs(response.headers, now(), this.serviceOffsetMs());
        const delay = Math.max(this.backoffDelay(failures), askedMs ?? 0);
        if (delay <= this.options.maxWaitMs && delay < budget.deadlineAt - now()) {
          failures++;
          await this.pause(delay, budget);
          continue;
        }
      }
      throw errorFromResponse(response);
    }
  }

  /** Remembers the service's clock (its Date header), for lookups by creation time. */
  private learnServerClock(headers: Record<string, string | undefined>): void {
    const date = headers.date ? Date.parse(headers.date) : Number.NaN;
    if (!Number.isNaN(date)) this.serviceClock = { serviceMs: date, localMs: this.options.now() };
  }

  /** Retry-After, else the announced reset, in ms from now. */
  private retryAfter(response: TransportResponse): number | undefined {
    const now = this.options.now();
    const asked = parseRetryAfterMs(response.headers, now, this.serviceOffsetMs());
    if (asked !== undefined) return asked;
    const { resetAtMs } = parseRateLimitHeaders(response.headers, now, this.serviceOffsetMs());
    return resetAtMs === undefined ? undefined : Math.max(0, resetAtMs - now);
  }

  private backoffDelay(attempt: number): number {
    return Math.min(this.options.maxWaitMs, backoffDelayMs(attempt, this.options.random));
  }

  /** Waits up to `ms`, less when the call's time is short (keeping a second for what follows). */
  async pauseWithin(ms: number, budget: CallBudget): Promise<void> {
    const usable = Math.min(ms, budget.deadlineAt - this.options.now() - 1_000);
    if (usable > 0) await this.pause(usable, budget);
  }

  /** Sleeps the backoff before retry `attempt`; false when it would not fit in the call's time. */
  private async backoff(attempt: number, budget: CallBudget): Promise<boolean> {
    const delay = this.backoffDelay(attempt);
    if (delay >= budget.deadlineAt - this.options.now()) return false;
    await this.pause(delay, budget);
    return true;
  }

  private async pause(ms: number, budget: CallBudget): Promise<void> {
    try {
      await this.options.sleep(ms, budget.signal);
    } catch (error) {
      if (budget.signal?.aborted) throw cancelledError();
      throw error;
    }
  }
}
