/** A loopback HTTP server that answers every request with whatever the current script says. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as is (no JSON encoding). */
  body?: string | Buffer;
}

export interface ScriptedServer {
  baseUrl: string;
  answer: ScriptedAnswer;
  /** Requests received: method and raw path. */
  received: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const state: ScriptedServer = {
    baseUrl: '',
    answer: { status: 200, body: '' },
    received: [],
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    state.received.push({ method: request.method ?? '', url: request.url ?? '' });
    request.resume();
    request.on('end', () => {
      const { status, headers = {}, body = '' } = state.answer;
      response.writeHead(status, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
