/**
 * A Transport over the runtime's global `fetch` (Node 18+), for hosts that offer no HTTP helper of their own
 * where one is needed: n8n's credential test gets only a deprecated request helper, so it tests the
 * credential through the core with this one. Keeps every transport rule (transport.ts): no redirect is
 * followed, the signal ends the request, the body is read with a cap.
 */
import { readBodyText } from './body-reader';
import type { Transport, TransportResponse } from './transport';
import { normalizeHeaders } from './response-normalizer';

export interface FetchTransportOptions {
  apiKey: string;
  userAgent?: string;
}

export function createFetchTransport(options: FetchTransportOptions): Transport {
  const authorization = `Bearer ${options.apiKey.trim()}`;
  return async (request): Promise<TransportResponse> => {
    const headers: Record<string, string> = { ...request.headers, Authorization: authorization };
    if (options.userAgent) headers['User-Agent'] = options.userAgent;
    const init: RequestInit = { method: request.method, headers, redirect: 'manual', signal: request.signal };
    if (request.body !== undefined) init.body = JSON.stringify(request.body);
    let response: Response;
    try {
      response = await fetch(request.url, init);
    } catch (error) {
      // fetch wraps the socket's error (ECONNREFUSED, …) in `cause`; the core reads the code from there.
      throw Object.assign(new Error(`${request.method} ${request.url} failed`), { cause: (error as { cause?: unknown }).cause ?? error });
    }
    const text = response.body ? await readBodyText(response.body as unknown as AsyncIterable<Uint8Array>, request.maxResponseBytes, request.signal) : '';
    return { status: response.status, headers: normalizeHeaders(response.headers), body: text };
  };
}
