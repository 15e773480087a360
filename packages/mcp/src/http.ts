/**
 * Streamable HTTP on one path (/mcp), with sessions: `initialize` opens one (its own protocol server and
 * transport, so a call's cancel and progress reach it), later requests name it in Mcp-Session-Id. Every
 * request first passes the checks of access.ts (Host, Origin, bearer token), in every mode. The accounts
 * (core client and run cache) are the process's, shared by all sessions of the same key (accounts.ts); a
 * session belongs to the key that opened it, and answers no other.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { hostAllowed, originAllowed, tokenAccepted, type HttpAccess } from './access';
import type { Account, Accounts } from './accounts';
import { createShortLinkServer, type ShortLinkServerOptions } from './server';
import { PER_REQUEST_KEY_HEADER } from './tool-error';
import { shortLinkTools } from './tools';

export const MCP_PATH = '/mcp';
/** The largest request body read (a tool call's arguments are small; a report's links list is a few KB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions kept at once, and how long an unused one is kept. */
export const MAX_SESSIONS = 500;
export const SESSION_IDLE_MS = 30 * 60_000;

export interface HttpOptions extends Omit<ShortLinkServerOptions, 'account'> {
  host: string;
  port: number;
  access: HttpAccess;
  accounts: Accounts;
  /** The account of requests that bring no key of their own (undefined: every request must bring one). */
  serverAccount?: Account;
  /** Take each request's key from the X-Shortlink-Api-Key header (a server for many accounts). */
  perRequestKey: boolean;
  /** Log lines (never a key or the token); default none. */
  log?: (line: string) => void;
  now?: () => number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  accountId: string;
  lastSeen: number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = -32000,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function answer(response: ServerResponse, refusal: Refusal): void {
  response
    .writeHead(refusal.status, { 'Content-Type': 'application/json', ...refusal.headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: null }));
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refusal(413, `Request body larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, -32600));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Refusal(400, 'Parse error: the body is not JSON', -32700));
      }
    });
  });
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Who is calling and for which account; throws the refusal to answer. */
function admit(request: IncomingMessage, options: HttpOptions): Account {
  if (!hostAllowed(options.access, header(request, 'host'))) throw new Refusal(403, 'Forbidden: the Host header names no address this server answers to (see --allowed-host)');
  if (!originAllowed(options.access, header(request, 'origin'))) throw new Refusal(403, 'Forbidden: requests from this Origin are not allowed (see --allowed-origin)');
  if (!tokenAccepted(options.access, header(request, 'authorization'))) {
    throw new Refusal(401, 'Unauthorized: send the server\'s token as "Authorization: Bearer <token>"', -32001, { 'WWW-Authenticate': 'Bearer realm="shortlink-mcp"' });
  }
  const key = header(request, PER_REQUEST_KEY_HEADER)?.trim();
  if (key && !options.perRequestKey) {
    throw new Refusal(400, 'This server acts with its own API key and takes none per request: leave out the X-Shortlink-Api-Key header (or start the server with --per-request-key)');
  }
  if (key) return options.accounts.forKey(key, 'header');
  if (options.serverAccount) return options.serverAccount;
  throw new Refusal(401, 'Send the API key of the account in the X-Shortlink-Api-Key header', -32001);
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  constructor(private readonly now: () => number) {}

  get(id: string, accountId: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session || session.accountId !== accountId) return undefined;
    session.lastSeen = this.now();
    return session;
  }

  add(id: string, session: Session): void {
    for (const [other, old] of this.sessions) {
      if (this.now() - old.lastSeen > SESSION_IDLE_MS) this.close(other);
    }
    if (this.sessions.size >= MAX_SESSIONS) {
      const oldest = [...this.sessions.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
      if (oldest) this.close(oldest[0]);
    }
    this.sessions.set(id, session);
  }

  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    void session.transport.close();
    void session.server.close();
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id);
  }

  get size(): number {
    return this.sessions.size;
  }
}

async function handle(request: IncomingMessage, response: ServerResponse, options: HttpOptions, sessions: SessionStore): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== MCP_PATH) throw new Refusal(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
  const account = admit(request, options);
  const body = request.method === 'POST' ? await readBody(request) : undefined;
  const sessionId = header(request, 'mcp-session-id');
  if (sessionId !== undefined) {
    const session = sessions.get(sessionId, account.id);
    // Unknown, ended, or another key's: the spec's answer makes the client start a new session.
    if (!session) throw new Refusal(404, 'Session not found: initialize a new session', -32001);
    return session.transport.handleRequest(request, response, body);
  }
  if (request.method !== 'POST') throw new Refusal(400, 'Bad Request: no session; open one with a POST of initialize', -32000);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id: string): void => sessions.add(id, { transport, server, accountId: account.id, lastSeen: (options.now ?? Date.now)() }),
    onsessionclosed: (id) => sessions.close(id),
  });
  const server = createShortLinkServer({ ...options, account, onCancelled: (requestId) => transport.closeSSEStream(requestId) });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
  // A POST that opened no session (not an initialize): nothing to keep.
  if (transport.sessionId === undefined) {
    void transport.close();
    void server.close();
  }
}

export async function startHttp(options: HttpOptions): Promise<{ server: HttpServer; url: string; close(): Promise<void> }> {
  // The tools (schemas included) are built once; each session gets only a new protocol server around them.
  const shared: HttpOptions = { ...options, tools: options.tools ?? shortLinkTools() };
  const sessions = new SessionStore(options.now ?? Date.now);
  const http = createServer((request, response) => {
    handle(request, response, shared, sessions).catch((error: unknown) => {
      if (error instanceof Refusal) {
        if (error.status >= 500 || error.status === 401 || error.status === 403) options.log?.(`HTTP ${error.status} for ${request.method} ${(request.url ?? '').slice(0, 100)}: ${error.message}`);
        if (!response.headersSent) answer(response, error);
        return;
      }
      options.log?.(`HTTP request failed: ${error instanceof Error ? error.name : 'error'}`);
      if (!response.headersSent) answer(response, new Refusal(500, 'Internal server error', -32603));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  // Listening on every address: the URL to print is the loopback one (always allowed, reachable here).
  const wildcard = options.host === '0.0.0.0' || options.host === '::' || options.host === '[::]';
  const host = wildcard ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const close = async (): Promise<void> => {
    sessions.closeAll();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { server: http, url: `http://${host}:${port}${MCP_PATH}`, close };
}
