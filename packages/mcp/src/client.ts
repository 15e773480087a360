/**
 * The core client of one account in a server process, on the runtime's fetch (no axios in the package) with
 * a plain timer sleep. One client per account for the process: its pacing and its link index serve every
 * tool call (accounts.ts keeps them).
 */
import { createClient, type ShortLinkClient, type Sleep } from '@shortlink/core/portable';
import { createFetchTransport } from '@shortlink/core/host';
import type { ServerConfig } from './config';
import { SERVER_NAME, SERVER_VERSION } from './server';

const timerSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function clientFor(config: ServerConfig, apiKey: string): ShortLinkClient {
  return createClient({
    baseUrl: config.baseUrl,
    apiKey,
    transport: createFetchTransport({ apiKey, userAgent: `${SERVER_NAME}/${SERVER_VERSION}` }),
    sleep: timerSleep,
    callTimeoutMs: config.callTimeoutMs,
  });
}
