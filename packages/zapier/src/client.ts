import type { Bundle, ZObject } from 'zapier-platform-core';
import { createClient } from '@shortlink/core/portable';
import { zapierTransport } from './transport';

/**
 * Zapier stops an action after 30 s. The core may wait for pacing or a Retry-After; above this cap it
 * throws RateLimitError instead, which becomes ThrottledError so that Zapier retries the step later.
 */
export const MAX_WAIT_MS = 20_000;

/** Zapier runs plain Node, so a promise timer is the sleep the portable core asks for. */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type ShortLinkClient = ReturnType<typeof createClient>;

/** One client per invocation: Zapier gives every run its own z and bundle. */
export function clientFor(z: ZObject, bundle: Bundle): ShortLinkClient {
  return createClient({
    // Required in the auth form, no default (the service's address is the user's); the core names a missing one.
    baseUrl: bundle.authData.baseUrl,
    // The key travels only through beforeRequest (middleware.ts); z.request never sees it here.
    apiKey: bundle.authData.apiKey,
    transport: zapierTransport(z),
    sleep,
    maxWaitMs: MAX_WAIT_MS,
  });
}
