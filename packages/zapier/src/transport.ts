import type { ZObject } from 'zapier-platform-core';
import { isBodyStream, normalizeHeaders, parseBodyText, readBodyText } from '@shortlink/core/host';
import type { Transport, TransportResponse } from '@shortlink/core/portable';

/**
 * The core's Transport over z.request, so that Zapier logs every call and scrubs the key from its logs.
 * The core owns the HTTP rules (statuses, retries, Retry-After), so z.request must hand every answer back
 * untouched: skipThrowForStatus keeps 4xx/5xx from throwing, and throwForThrottlingEarly: false keeps
 * zapier-platform-core from turning a 429 into ThrottledError before the core could wait a short
 * Retry-After itself (a long one comes back as RateLimitError, mapped in errors.ts).
 *
 * The transport rules (core transport.ts), on node-fetch underneath z.request: `redirect: 'manual'` (it
 * would follow a redirect and re-post the body), the core's signal (fires at the request's limit), and
 * `raw: true` so that the body is read here as a stream with the size cap instead of whole by Zapier.
 *
 * `merge: false`: the app has no requestTemplate, and zapier-platform-core's merge with it (prepare-request.js)
 * deep-copies the whole request object, which carries the step's input with the compiled app definition
 * (≈ 2 100 values): about 1 ms of CPU for every request, on Lambda as here. Without the merge the request
 * goes as the core built it (its query string untouched); the one thing the merge added, Zapier's default
 * User-Agent, is set here.
 */
export function zapierTransport(z: ZObject): Transport {
  return async (request) => {
    const response = await z.request({
      method: request.method,
      url: request.url,
      headers: { 'user-agent': 'Zapier', ...request.headers },
      // Serialised here (not via `json:`) so Zapier adds no second content-type and keeps nulls as sent.
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      skipThrowForStatus: true,
      throwForThrottlingEarly: false,
      redirect: 'manual',
      signal: request.signal,
      timeout: request.timeoutMs,
      raw: true,
      merge: false,
    } as Parameters<ZObject['request']>[0] & { url: string });
    const body = (response as unknown as { body?: unknown }).body;
    return {
      status: response.status,
      headers: normalizeHeaders(response.headers as unknown as Parameters<typeof normalizeHeaders>[0]),
      body: parseBodyText(isBodyStream(body) ? await readBodyText(body, request.maxResponseBytes, request.signal) : ''),
    } satisfies TransportResponse;
  };
}


