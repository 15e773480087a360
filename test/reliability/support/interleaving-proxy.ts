/**
 * A loopback HTTP proxy in front of the sandbox that can run work (e.g. create links) right before it
 * forwards the n-th list request, so that a trigger's poll sees links appear between its pages.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InterleavingProxy {
  baseUrl: string;
  /** Runs `work` before forwarding the list request `after` list requests from now (0 = the next one). */
  beforeListRequest(after: number, work: () => Promise<void>): void;
  /** Answers the list request `after` list requests from now with a 400 problem instead of forwarding it. */
  failListRequest(after: number): void;
  /** Answers the next list request that carries a cursor with the 422 a service gives for a cursor it refuses. */
  refuseNextCursor(): void;
  /** Drops work that has not run yet. */
  clear(): void;
  close(): Promise<void>;
}

const LIST_PATH = '/api/v1/links';
/** The detail of an injected failure, so that a test tells it apart from a real one. */
export const INJECTED_FAILURE = 'Injected failure while paging';

export async function startInterleavingProxy(targetBaseUrl: string): Promise<InterleavingProxy> {
  const target = new URL(targetBaseUrl);
  let listRequests = 0;
  let pending: Array<{ at: number; work: () => Promise<void> }> = [];
  let failures: number[] = [];
  let refuseCursor = false;

  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      const isList = incoming.method === 'GET' && (incoming.url ?? '').split('?')[0] === LIST_PATH;
      if (isList) {
        const due = pending.filter((p) => p.at <= listRequests);
        pending = pending.filter((p) => p.at > listRequests);
        const fail = failures.some((at) => at <= listRequests);
        failures = failures.filter((at) => at > listRequests);
        listRequests++;
        for (const p of due) await p.work();
        if (refuseCursor && /[?&]cursor=/.test(incoming.url ?? '')) {
          refuseCursor = false;
          const detail = `cursor is not a valid cursor; pass the nextCursor of a previous page. (${INJECTED_FAILURE})`;
          outgoing.writeHead(422, { 'content-type': 'application/problem+json' });
          outgoing.end(JSON.stringify({ type: 'about:blank', title: 'Validation failed', status: 422, detail, errors: [{ field: 'cursor', message: detail }] }));
          incoming.resume();
          return;
        }
        if (fail) {
          // 400 is not retried by the core: the poll fails at once, mid-way through its pages.
          outgoing.writeHead(400, { 'content-type': 'application/problem+json' });
          outgoing.end(JSON.stringify({ type: 'about:blank', title: 'Bad request', status: 400, detail: INJECTED_FAILURE }));
          incoming.resume();
          return;
        }
      }
      const forwarded = http.request(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    })().catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    beforeListRequest(after, work) {
      pending.push({ at: listRequests + after, work });
    },
    failListRequest(after) {
      failures.push(listRequests + after);
    },
    refuseNextCursor() {
      refuseCursor = true;
    },
    clear() {
      pending = [];
      failures = [];
      refuseCursor = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
