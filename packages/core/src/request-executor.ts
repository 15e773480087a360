/**
 * Sends one API call through the transport with pacing, retries and error mapping. Every client
 * method goes through here, so the policy lives in one place (README "Retries" and "Pacing").
 */
import { apiUrlFor } from './base-url';
import { errorFromResponse } from './error-from-response';
import { networkCodeOf, networkError } from './network-errors';
import { RateLimitPacer, waitTooLongError } from './pacer';
import { parseRateLimitHeaders, parseRetryAfterMs } from './rate-limit-headers';
import { normalizeHeaders, normalizeResponse } from './response-normalizer';
import { backoffDelayMs, isRetryable, mayHaveBeenProcessed } from './retry-policy';
import type { HttpMethod, Sleep, Transport, TransportRequest, TransportResponse } from './transport';

export interface ExecutorOptions {
  baseUrl: string;
  transport: Transport;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  maxWaitMs: number;
  maxRetries: number;
}

export interface ApiCall {
  method: HttpMethod;
  /** Relative to /api/v1, ids already encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /**
   * DELETE: when an earlier attempt may have been processed (reset, timeout, 5xx), a 404 on the retry
   * means that attempt deleted the link; the answer is then returned as success.
   */
  notFoundAfterUncertainAttemptIsSuccess?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
    this.pacer = new RateLimitPacer({ now: options.now, sleep: options.sleep, maxWaitMs: options.maxWaitMs });
  }

  async send(call: ApiCall): Promise<TransportResponse> {
    const { transport, maxRetries, now } = this.options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const request: TransportRequest = { method: call.method, url: buildUrl(this.apiUrl, call.path, call.query), path: call.path, headers };
    if (call.query) request.query = call.query;
    if (call.body !== undefined) request.body = call.body;

    let failures = 0; // 5xx and network retries
    let rateLimited = 0; // 429 retries, counted apart: waiting for the window is not a failure
    let uncertain = false; // an earlier attempt may have been processed

    for (;;) {
      const permit = await this.pacer.acquire();
      let response: TransportResponse;
      try {
        response = normalizeResponse(await transport({ ...request, headers: { ...headers } }));
      } catch (thrown) {
        const inside = answerInside(thrown);
        if (!inside) {
          permit.settle();
          const networkCode = networkCodeOf(thrown);
          if (failures < maxRetries && isRetryable(call.method, { networkCode })) {
            if (mayHaveBeenProcessed({ networkCode })) uncertain = true;
            await this.backoff(failures++);
            continue;
          }
          throw networkError(thrown, call.method, request.url);
        }
        response = inside;
      }
      permit.settle(response.headers);
      const { status } = response;

      if (status >= 200 && status < 300) return response;
      if (status === 404 && uncertain && call.notFoundAfterUncertainAttemptIsSuccess) return response;

      if (status === 429) {
        const retryAfterMs = this.retryAfter(response) ?? backoffDelayMs(rateLimited, this.options.random);
        if (retryAfterMs > this.options.maxWaitMs) {
          const { type, detail } = errorFromResponse(response, { retryAfterMs });
          const problem: { type?: string; detail?: string } = {};
          if (type !== undefined) problem.type = type;
          if (detail !== undefined) problem.detail = detail;
          throw waitTooLongError(retryAfterMs, this.options.maxWaitMs, problem);
        }
        if (rateLimited < maxRetries) {
          rateLimited++;
          // The wait itself happens in the pacer, so that every concurrent call of this client waits too.
          this.pacer.blockFor(retryAfterMs);
          continue;
        }
        throw errorFromResponse(response, { retryAfterMs });
      }

      if (failures < maxRetries && isRetryable(call.method, { status })) {
        if (mayHaveBeenProcessed({ status })) uncertain = true;
        const askedMs = parseRetryAfterMs(response.headers, now());
        const delay = Math.max(this.backoffDelay(failures), askedMs ?? 0);
        if (delay <= this.options.maxWaitMs) {
          failures++;
          await this.options.sleep(delay);
          continue;
        }
      }
      throw errorFromResponse(response);
    }
  }

  /** Retry-After, else the announced reset, in ms from now. */
  private retryAfter(response: TransportResponse): number | undefined {
    const now = this.options.now();
    const asked = parseRetryAfterMs(response.headers, now);
    if (asked !== undefined) return asked;
    const { resetAtMs } = parseRateLimitHeaders(response.headers, now);
    return resetAtMs === undefined ? undefined : Math.max(0, resetAtMs - now);
  }

  private backoffDelay(attempt: number): number {
    return Math.min(this.options.maxWaitMs, backoffDelayMs(attempt, this.options.random));
  }

  private async backoff(attempt: number): Promise<void> {
    await this.options.sleep(this.backoffDelay(attempt));
  }
}
