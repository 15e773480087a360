/**
 * Servers with the bad habits of real networks, on loopback, for the transport tests of the core, the n8n
 * node and the Zapier app: one that redirects to another origin, one that records what reaches it (that
 * other origin), one that trickles its answer, one that answers hundreds of megabytes, one that echoes the
 * request's credentials back in its problem.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every request that reached this server. */
  calls: RecordedCall[];
  close(): Promise<void>;
}

/**
 * Servers a test file starts and stops: `track(start…())` keeps them, `closeAll()` (in afterEach) stops them.
 */
export function serverPool(): { track(server: Promise<TestServer>): Promise<TestServer>; closeAll(): Promise<void> } {
  const servers: TestServer[] = [];
  return {
    async track(server) {
      const started = await server;
      servers.push(started);
      return started;
    },
    async closeAll() {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  };
}

type Handler = (request: IncomingMessage, response: ServerResponse, call: RecordedCall) => void;

/** A loopback server that records every request and answers with `handler`. `host` picks another loopback name. */
export async function startServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const calls: RecordedCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const call = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      calls.push(call);
      handler(request, response, call);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers like the service would, but it is somebody else: whatever reaches it has leaked. */
export function startRecordingServer(host?: string): Promise<TestServer> {
  return startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 'from-the-other-host', shortUrl: 'https://evil.test/x', targetUrl: 'https://evil.test', slug: 'x', name: 'Other host', email: 'other@host.test' }));
  }, host);
}

/** Redirects every request to the same path on `target` with `status` (302, 307, …). */
export function startRedirectingServer(target: string, status = 307): Promise<TestServer> {
  return startServer((request, response) => {
    response.writeHead(status, { location: `${target}${request.url ?? '/'}`, 'content-type': 'text/plain' });
    response.end('Moved');
  });
}

/** Sends its headers, then one byte every `intervalMs` for ever: an idle timeout never fires. */
export function startTricklingServer(intervalMs = 100): Promise<TestServer> {
  return startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"data":[');
    const timer = setInterval(() => response.write(' '), intervalMs);
    response.on('close', () => clearInterval(timer));
  });
}

/** Answers 200 with a JSON body of about `megabytes` MB, streamed in 64 kB pieces. */
export function startHugeAnswerServer(megabytes: number): Promise<TestServer> {
  return startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const piece = `"${'x'.repeat(64 * 1024 - 3)}",`;
    let left = Math.ceil((megabytes * 1024 * 1024) / piece.length);
    response.write('{"data":[');
    const pump = (): void => {
      while (left > 0) {
        left -= 1;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end('"end"],"nextCursor":null}');
    };
    pump();
  });
}

/** Answers 401 with a problem whose type, title and detail repeat the Authorization header it received. */
export function startEchoingServer(): Promise<TestServer> {
  return startServer((request, response) => {
    const sent = String(request.headers.authorization ?? '');
    const key = sent.replace(/^Bearer /, '');
    response.writeHead(401, { 'content-type': 'application/problem+json' });
    response.end(
      JSON.stringify({
        type: `https://errors.test/unauthorized?key=${encodeURIComponent(key)}&raw=${key}`,
        title: `Unauthorized ${key}`,
        status: 401,
        detail: `The key ${key} (header: ${sent}) is not valid.`,
      }),
    );
  });
}
