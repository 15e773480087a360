import type { Bundle, ZObject } from 'zapier-platform-core';
import { createClient } from '@shortlink/core/portable';
import type { LinkIndexClientOptions } from '@shortlink/core/host';
import { zapierTransport } from './transport';
import { checkBaseUrlForZapier } from './baseUrl';
import { pacingStateFor, registerPacedClient } from './sharedPacing';
import { MAX_WAIT_MS, REQUEST_TIMEOUT_MS, STEP_TIME_BUDGET_MS, stepDeadline } from './stepBudget';

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

/**
 * One client per step: Zapier gives every run its own z and bundle; what the connection's steps learned of
 * the rate limit goes from one to the next through z.cache (sharedPacing.ts). All its calls share the step's time
 * budget (stepBudget.ts), so two calls in one step cannot add up past Zapier's 30 s. `linkIndex`: see
 * linkIndex.ts.
 */
export function clientFor(z: ZObject, bundle: Bundle, linkIndex?: LinkIndexClientOptions): ShortLinkClient {
  checkBaseUrlForZapier(bundle.authData.baseUrl);
  const pacingState = pacingStateFor(bundle);
  const client = createClient({
    // What the connection's earlier steps learned of the rate limit (sharedPacing.ts): this step starts paced.
    ...(pacingState ? { pacingState } : {}),
    ...(linkIndex ? { linkIndex } : {}),
    // Required in the auth form, no default (the service's address is the user's); the core names a missing
    // one and refuses plain http, Zapier's rule (checkBaseUrlForZapier) refuses this machine.
    baseUrl: bundle.authData.baseUrl,
    // The key travels only through beforeRequest (middleware.ts); z.request never sees it here.
    apiKey: bundle.authData.apiKey,
    transport: zapierTransport(z),
    sleep,
    maxWaitMs: MAX_WAIT_MS,
    callTimeoutMs: STEP_TIME_BUDGET_MS,
    sharedDeadline: stepDeadline(bundle),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  registerPacedClient(bundle, client);
  return client;
}
