/**
 * Counts the HTTP statuses a benchmark step receives from the sandbox, whatever client sent the request
 * (axios in the core and the n8n host, node-fetch inside Zapier's z.request): Node's http client publishes
 * every finished response on a diagnostics channel. Client-side counting, so a 429 that a client
 * absorbed by waiting and retrying is still counted.
 */
import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';

const CHANNEL = 'http.client.response.finish';

export interface StatusCounter {
  /** Responses per status since the counter started. */
  readonly byStatus: Map<number, number>;
  total(): number;
  count(status: number): number;
  stop(): void;
}

/** Counts the responses of requests sent to `baseUrl` (its host and port) from now until stop(). */
export function countStatuses(baseUrl: string): StatusCounter {
  const host = new URL(baseUrl).host;
  const byStatus = new Map<number, number>();
  const listener = (message: unknown) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if (String(request.getHeader('host')) !== host) return;
    const status = response.statusCode ?? 0;
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  };
  diagnostics.subscribe(CHANNEL, listener);
  return {
    byStatus,
    total: () => [...byStatus.values()].reduce((sum, n) => sum + n, 0),
    count: (status) => byStatus.get(status) ?? 0,
    stop: () => diagnostics.unsubscribe(CHANNEL, listener),
  };
}
