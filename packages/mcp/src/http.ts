/**
 * Streamable HTTP on one path (/mcp), stateless: each POST gets its own server and transport over the
 * process's one client, so no session state can leak between callers. Bound to loopback by default; the
 * Host and Origin checks refuse a web page that reaches the port by DNS rebinding (the server holds the
 * key: whoever can call it acts on the account).
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopbackHost } from '@shortlink/core/host';
import { createShortLinkServer, type ShortLinkServerOptions } from './server';
import { shortLinkTools } from './tools';

export const MCP_PATH = '/mcp';

export interface HttpOptions extends ShortLinkServerOptions {
  host: string;
  port: number;
  /** Log lines (never the key); default none. */
  log?: (line: string) => void;
}

function hostnameOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** On a loopback server, only loopback Host and Origin headers: a page of another site never gets through. */
function refusedOrigin(request: IncomingMessage, loopbackOnly: boolean): string | undefined {
  if (!loopbackOnly) return undefined;
  const host = hostnameOf(request.headers.host);
  if (!host || !isLoopbackHost(host)) return 'Host must be a loopback address';
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && !isLoopbackHost(hostnameOf(origin) ?? '')) return 'Origin not allowed';
  return undefined;
}

function answer(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function handle(request: IncomingMessage, response: ServerResponse, options: HttpOptions, loopbackOnly: boolean): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== MCP_PATH) return answer(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
  const refused = refusedOrigin(request, loopbackOnly);
  if (refused) return answer(response, 403, refused);
  // Stateless: no stream to resume (GET) and no session to end (DELETE).
  if (request.method !== 'POST') return answer(response, 405, 'Method not allowed: send JSON-RPC with POST');
  const server = createShortLinkServer(options);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

export async function startHttp(options: HttpOptions): Promise<{ server: HttpServer; url: string }> {
  const loopbackOnly = isLoopbackHost(options.host);
  // The tools (schemas included) are built once; each request gets only a new protocol server around them.
  const perRequest: HttpOptions = { ...options, tools: options.tools ?? shortLinkTools() };
  const http = createServer((request, response) => {
    handle(request, response, perRequest, loopbackOnly).catch((error: unknown) => {
      options.log?.(`HTTP request failed: ${error instanceof Error ? error.name : 'error'}`);
      if (!response.headersSent) answer(response, 500, 'Internal server error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { server: http, url: `http://${host}:${port}${MCP_PATH}` };
}
