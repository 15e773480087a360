import type { Bundle, ZObject } from 'zapier-platform-core';
import { createClient, type LinkIndexClientOptions } from '@shortlink/core/portable';
import { zapierTransport } from './transport';

/**
 * Zapier stops an action after 30 s. The core may wait for pacing or a Retry-After; above this cap it
 * throws RateLimitError instead, which becomes ThrottledError so that Zapier retries the step later.
 */
export const MAX_WAIT_MS = 20_000;

/**
 * The whole call (every request, wait, retry and lookup of it) must end inside Zapier's 30 s a step, with
 * room for Zapier's own work: what does not fit becomes a retryable error instead of a killed step.
 */
export const CALL_TIMEOUT_MS = 25_000;

/** Each request's own limit: a slow answer leaves time for a retry or a create's lookup. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Zapier runs plain Node, so a promise timer is the sleep the portable core asks for (ended early by the signal). */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

export type ShortLinkClient = ReturnType<typeof createClient>;

/** One client per invocation: Zapier gives every run its own z and bundle. `linkIndex`: see linkIndex.ts. */
export function clientFor(z: ZObject, bundle: Bundle, linkIndex?: LinkIndexClientOptions): ShortLinkClient {
  return createClient({
    ...(linkIndex ? { linkIndex } : {}),
    // Required in the auth form, no default (the service's address is the user's); the core names a missing one.
    baseUrl: bundle.authData.baseUrl,
    // The key travels only through beforeRequest (middleware.ts); z.request never sees it here.
    apiKey: bundle.authData.apiKey,
    transport: zapierTransport(z),
    sleep,
    maxWaitMs: MAX_WAIT_MS,
    callTimeoutMs: CALL_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
}
